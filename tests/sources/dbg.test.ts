import path from 'node:path';
import { Renderer, toRGBA8 } from '../../src/index.js';
import { NodeLoader } from '../../src/node/loader.js';
import { FIXTURES } from './helpers.js';
test('dbg', async () => {
  const dem = { type: 'dem', tiles: ['{z}-{x}-{y}.png'], encoding: 'terrarium', tileSize: 256, maxzoom: 9 };
  const RELIEF = [[400, '#2e9a58'], [700, '#fbff80'], [1000, '#e06c1f'], [1300, '#c83737']];
  for (const variant of ['full', 'noLines', 'linesOnly']) {
  const nodes: any = {
    e: { op: 'dem' },
    relief: { op: 'color-ramp', field: '@e', stops: RELIEF.map(([value, color]) => ({ value, color })) },
    iso: { op: 'contour', field: '@e', interval: 50 },
    lines: { op: 'stroke-solid', features: '@iso', width: 1.5, color: '#3b2a1a' },
    out: { op: 'blend', base: '@relief', over: '@lines' },
  };
  const output = variant === 'full' ? 'out' : variant === 'noLines' ? 'relief' : 'lines';
  const r = Renderer.create({ output, sources: { dem }, nodes }, { loader: new NodeLoader({ baseDir: path.join(FIXTURES, 'dem/terrarium/mapzen-z9-256') }) });
  const T = 256, W = 512, z = 10, x = 538, y = 355;
  const mosaic = new Uint8Array(W * W * 4);
  for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
    const px = toRGBA8(await r.renderTile({ z, x: x + dx, y: y + dy }, undefined, { tileSize: T }));
    for (let row = 0; row < T; row++) mosaic.set(px.subarray(row * T * 4, (row + 1) * T * 4), ((dy * T + row) * W + dx * T) * 4);
  }
  const win = toRGBA8((await r.renderWindow({ z, x0: x * T, y0: y * T, width: W, height: W, tileSize: T })).raster);
  const bad: string[] = [];
  for (let i = 0; i < win.length; i += 4) { let m = 0; for (let c = 0; c < 4; c++) m = Math.max(m, Math.abs(win[i + c]! - mosaic[i + c]!)); if (m > 1) bad.push(`(${(i / 4) % W},${Math.floor(i / 4 / W)}):${m}`); }
  console.log(variant, bad.length, bad.slice(0, 20).join(' '));
  }
});
