// Seam invariant for one style (DESIGN §3): tiles z/x..x+1/y..y+1 rendered one by one and put side
// by side equal the same 2x2 area rendered as one window, within 1/255 on all but 0.01 % of pixels
// (tests/sources/seam.test.ts states the same rule). Also reports coverage and distinct colours so
// an empty or flat render cannot pass.
import { Renderer, toRGBA8, type Backend, type Loader } from '../../src/index.js';
import { compareRGBA, type Tolerance } from './compare.js';

export const SEAM_TOLERANCE: Tolerance = { channel: 1, fraction: 0.0001 };

export interface SeamResult {
  ok: boolean;
  badPixels: number;
  maxDiff: number;
  covered: number;
  colours: number;
}

export async function seam(style: object, z: number, x: number, y: number, T = 128, opts: { loader?: Loader; backend?: Backend } = {}): Promise<SeamResult> {
  const r = Renderer.create(style, opts.loader ? { loader: opts.loader } : {});
  const W = 2 * T;
  const mosaic = new Uint8Array(W * W * 4);
  for (const [dx, dy] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [1, 1],
  ] as const) {
    const px = toRGBA8(await r.renderTile({ z, x: x + dx, y: y + dy }, undefined, { tileSize: T, backend: opts.backend }));
    for (let row = 0; row < T; row++) mosaic.set(px.subarray(row * T * 4, (row + 1) * T * 4), ((dy * T + row) * W + dx * T) * 4);
  }
  const win = toRGBA8((await r.renderWindow({ z, x0: x * T, y0: y * T, width: W, height: W, tileSize: T }, undefined, { backend: opts.backend })).raster);
  const cmp = compareRGBA(win, mosaic, W, W, SEAM_TOLERANCE);
  let covered = 0;
  const colours = new Set<number>();
  for (let i = 0; i < win.length; i += 4) {
    if (win[i + 3]! > 0) covered++;
    if (colours.size < 1000) colours.add((win[i]! << 24) | (win[i + 1]! << 16) | (win[i + 2]! << 8) | win[i + 3]!);
  }
  return { ok: cmp.ok, badPixels: cmp.badPixels, maxDiff: cmp.maxDiff, covered: covered / (W * W), colours: colours.size };
}

export function expectSeamless(r: SeamResult, minCovered = 0.3): void {
  if (process.env.SEAM_DEBUG) console.log(JSON.stringify(r));
  expect(r.covered).toBeGreaterThan(minCovered);
  expect(r.colours).toBeGreaterThan(20);
  expect({ ok: r.ok, badPixels: r.badPixels }).toEqual({ ok: true, badPixels: expect.any(Number) });
}
