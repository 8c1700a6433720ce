// CLI `tile` and `bbox` through child processes, and every exit code.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { requireBuild, writeFixtures, type Fixture } from '../server/fixtures.js';
import { decodeWithSharp, differenceFromRaster } from '../helpers/decode.js';
import { cli, px, readPng, renderTileHere } from './helpers.js';

let fx: Fixture;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
});

test('tile writes the PNG of one tile; --param and --tile-size apply', async () => {
  const out = path.join(fx.dir, 't.png');
  const green = path.join(fx.dir, 'sub', 'dir', 'green.png');
  const [a, b] = await Promise.all([
    cli(['tile', '--style', fx.shapes, '--tile', '1/0/0', '--out', out]),
    cli(['tile', '--style', fx.shapes, '--tile', '1/0/0', '--out', green, '--param', 'fill=#00ff00', '--param', 'alpha=0.5', '--tile-size', '512']),
  ]);
  expect(a).toMatchObject({ code: 0, stderr: '' });
  expect(a.stdout).toContain(out);
  const img = await readPng(readFileSync(out));
  expect([img.width, img.height]).toEqual([256, 256]);
  // Inside the triangle (#ff8800), and outside everything (transparent).
  expect(px(img, 200, 250).map((v, i) => Math.abs(v - [255, 136, 0, 255][i]!) <= 1)).toEqual([true, true, true, true]);
  expect(px(img, 5, 5)[3]).toBe(0);
  expect(b.code).toBe(0);
  const g = await readPng(readFileSync(green));
  expect([g.width, g.height]).toEqual([512, 512]);
  // The same place at twice the pixels: green at half alpha (un-premultiplied back to #00ff00).
  const p = px(g, 400, 500);
  expect(p[1]).toBeGreaterThanOrEqual(254);
  expect(p[0]).toBeLessThanOrEqual(1);
  expect(Math.abs(p[3]! - 128)).toBeLessThanOrEqual(1);
  // Both files decode (libvips) to exactly the pixels of the same render in this process.
  expect(await differenceFromRaster(readFileSync(out), await renderTileHere(fx.shapes, [1, 0, 0]))).toBeUndefined();
  expect(await differenceFromRaster(readFileSync(green), await renderTileHere(fx.shapes, [1, 0, 0], { fill: '#00ff00', alpha: '0.5' }, 512))).toBeUndefined();
});

test('tile of a solid #ffffff style: libvips decodes 65,536 white pixels (opaque white was the old encoder’s run sentinel)', async () => {
  const style = path.join(fx.dir, 'white.json');
  writeFileSync(style, JSON.stringify({ output: 'bg', nodes: { bg: { op: 'solid', color: '#ffffff' } } }));
  const out = path.join(fx.dir, 'white.png');
  expect((await cli(['tile', '--style', style, '--tile', '0/0/0', '--out', out])).code).toBe(0);
  const img = await decodeWithSharp(readFileSync(out));
  expect([img.width, img.height, img.data.filter((v) => v === 255).length]).toEqual([256, 256, 65536 * 4]);
});

test('--param takes CSS colour names as the workbench does (issue 23): fill=beige is fill=#f5f5dc', async () => {
  const named = path.join(fx.dir, 'beige.png');
  const hex = path.join(fx.dir, 'f5f5dc.png');
  const [a, b] = await Promise.all([
    cli(['tile', '--style', fx.shapes, '--tile', '1/0/0', '--out', named, '--param', 'fill=beige']),
    cli(['tile', '--style', fx.shapes, '--tile', '1/0/0', '--out', hex, '--param', 'fill=#f5f5dc']),
  ]);
  expect([a.code, a.stderr, b.code]).toEqual([0, '', 0]);
  expect(readFileSync(named).equals(readFileSync(hex))).toBe(true);
  // Witness: CSS Color 4's named colour beige is rgb(245, 245, 220).
  expect(px(await readPng(readFileSync(named)), 200, 250)).toEqual([245, 245, 220, 255]);
});

test('bbox renders exactly the floor/ceil world-pixel window of the box', async () => {
  const out = path.join(fx.dir, 'b.png');
  const [w, s, e, n] = [-12.3, -7.7, 21.9, 15.2];
  const z = 3;
  const r = await cli(['bbox', '--style', fx.shapes, `--bbox=${w},${s},${e},${n}`, '--zoom', String(z), '--out', out]);
  expect(r.code).toBe(0);
  // Web Mercator closed form, independent of the renderer's tile math.
  const world = 256 * 2 ** z;
  const X = (lng: number) => ((lng + 180) / 360) * world;
  const Y = (lat: number) => ((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * world;
  const x0 = Math.floor(X(w));
  const y0 = Math.floor(Y(n));
  const width = Math.ceil(X(e)) - x0;
  const height = Math.ceil(Y(s)) - y0;
  const img = await readPng(readFileSync(out));
  expect([img.width, img.height]).toEqual([width, height]);
  expect(r.stdout).toContain(`world pixels x ${x0}..${x0 + width}, y ${y0}..${y0 + height}`);
  // The box is inside the square (-10..10) only partly; its centre (4.8, 3.75) is inside the triangle.
  expect(px(img, Math.floor(width / 2), Math.floor(height / 2))[3]).toBe(255);
});

test("a mistyped command names the nearest one (issue 23: 'tiel' got no suggestion)", async () => {
  const r = await cli(['tiel', '--style', fx.shapes, '--tile', '0/0/0', '--out', path.join(fx.dir, 'y.png')]);
  expect([r.code, r.stderr]).toEqual([1, "tilegraph: usage error: unknown command 'tiel'; did you mean 'tile'? (see tilegraph --help)\n"]);
  const far = await cli(['frobnicate']);
  expect(far.stderr).toBe(
    "tilegraph: usage error: unknown command 'frobnicate'; the commands are tile, bbox, tiles, merge, convert, check, serve (see tilegraph --help)\n",
  );
  // Every command --help lists is one the suggestion knows (none is reported unknown).
  const help = await cli(['--help']);
  const listed = [...help.stdout.matchAll(/^ {2}tilegraph (\w+)/gm)].map((m) => m[1]);
  expect(listed).toEqual(['tile', 'bbox', 'tiles', 'merge', 'convert', 'check', 'serve']);
});

test('distinct exit codes with a one-line message', async () => {
  const out = path.join(fx.dir, 'x.png');
  const t = ['--tile', '0/0/0', '--out', out];
  const cases: [string[], number, RegExp][] = [
    [['tile', '--style', fx.brokenJson, ...t], 2, /^tilegraph: style error: .*JSON/],
    [['tile', '--style', fx.badRef, ...t], 2, /^tilegraph: style error: \/nodes\/out\/features: '@nope' names no node/],
    [['tile', '--style', path.join(fx.dir, 'absent.json'), ...t], 2, /^tilegraph: style error: cannot read style .*absent\.json/],
    [['tile', '--style', fx.shapes, '--param', 'fill=sand', ...t], 3, /^tilegraph: param error: param 'fill': 'sand' is not a colour/],
    [
      ['tile', '--style', fx.shapes, '--param', 'alpha=3', '--param', 'nope=1', ...t],
      3,
      /^tilegraph: param error: param 'alpha': 3 is above its max 1; unknown param 'nope'/,
    ],
    [['tile', '--style', fx.shapes, '--param', 'fill', ...t], 3, /^tilegraph: param error: --param 'fill' is not name=value/],
    [['tile', '--style', fx.missingSource, ...t], 4, /^tilegraph: render error: \/sources\/shapes: source 'shapes'.*no-such-file\.geojson/],
    [['tile', '--style', fx.shapes, '--tile', '1/2/0', '--out', out], 1, /^tilegraph: usage error: --tile '1\/2\/0' is outside the world/],
    [['tile', '--style', fx.shapes, '--tile', '0/0/0'], 1, /^tilegraph: usage error: Missing required argument: out/],
    [['tile', '--style', fx.shapes, '--bogus', ...t], 1, /^tilegraph: usage error: Unknown argument: bogus/],
    [
      ['bbox', '--style', fx.shapes, '--bbox', '10,0,10,1', '--zoom', '1', '--out', out],
      1,
      /^tilegraph: usage error: --bbox '10,0,10,1': west and east are equal/,
    ],
    [['bbox', '--style', fx.shapes, '--bbox=-1,-1,1,1', '--zoom', '1.5', '--out', out], 1, /^tilegraph: usage error: --zoom '1.5' is not an integer zoom/],
    [[], 1, /^tilegraph: usage error: name a command/],
  ];
  const results = await Promise.all(cases.map(([args]) => cli(args)));
  results.forEach((r, i) => {
    const [args, code, message] = cases[i]!;
    expect({ args, code: r.code }).toEqual({ args, code });
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

test('convert writes the graph of a MapLibre style, and tile renders the MapLibre style itself', async () => {
  const ml = path.join(fx.dir, 'maplibre.json');
  writeFileSync(
    ml,
    JSON.stringify({
      version: 8,
      sources: {
        g: {
          type: 'geojson',
          data: {
            type: 'Polygon',
            coordinates: [
              [
                [-10, -10],
                [10, -10],
                [10, 10],
                [-10, -10],
              ],
            ],
          },
        },
      },
      layers: [
        { id: 'bg', type: 'background', paint: { 'background-color': '#ffffff' } },
        { id: 'land', type: 'fill', source: 'g', paint: { 'fill-color': '#ff0000' } },
      ],
      light: { intensity: 0.5 },
    }),
  );
  const out = path.join(fx.dir, 'graph.json');
  const r = await cli(['convert', '--style', ml, '--out', out]);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('tilegraph: not honoured: light: not drawn: a flat raster map has no 3D scene\n');
  const graph = JSON.parse(readFileSync(out, 'utf8'));
  expect(graph).toMatchObject({ 'zoom-basis': 512, nodes: { bg: { op: 'solid', color: '#ffffff' }, land: { op: 'fill-solid', fill: '#ff0000' } } });
  // The written graph is an ordinary style: tile renders it, and the MapLibre style alike.
  for (const style of [out, ml]) {
    const t = await cli(['tile', '--style', style, '--tile', '0/0/0', '--out', path.join(fx.dir, 'ml.png')]);
    expect(t.code).toBe(0);
  }
});
