// text: tile mosaics equal window renders on real data (Natural Earth places z2 to z5, line labels
// on the Chicago and Berlin street tiles) at pixel ratio 1 and 2 on both backends, CPU/GPU parity,
// `avoid`, warnings for characters no font holds, legend swatches, bidi levels and font containers.
// Against tools we did not write: witness.test.ts (HarfBuzz, FreeType); placement: placement.test.ts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { NodeLoader } from '../../hosts/node/loader.js';
import { CpuBackend, Renderer, toRGBA8, type Backend, type Window } from '../../index.js';
import { diffRasters, GPU, gpuDescribe, gpuTest } from '../../../tests/gpu/harness.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';
import { fixture, fixturesDescribe, fixturesPresent } from '../../../tests/helpers/fixtures.js';
import { chicagoStyle, placesStyle } from '../../../tests/helpers/text-styles.js';
import { bidiLevels } from './shape.js';
import { fontFormat, toSfnt } from './sfnt.js';

const loader = () => new NodeLoader({ baseDir: path.resolve('.'), allowOutside: true });

const places = (extra: Record<string, unknown> = {}) => placesStyle('#e8e4dc', { color: '#222222', ...extra });

/** Chicago (mvt-fixtures, z13 2x2 block): street names along road_label lines avoiding place names. */
const chicago = (extra: Record<string, unknown> = {}) => chicagoStyle('#f8f4f0', { color: '#8a3b12', rounds: 2 }, { color: '#333333', ...extra });

/** Berlin (14/8801/5371, the peers' street tile, alone: `bounds`): street names along road_label. */
const berlin = () => ({
  output: 'out',
  sources: {
    streets: {
      type: 'mvt',
      tiles: [fixture('mvt', 'vector-tile-js', '{z}-{x}-{y}.mvt')],
      minzoom: 14,
      maxzoom: 14,
      bounds: [13.381349, 52.536275, 13.403319, 52.549634],
    },
  },
  nodes: {
    bg: { op: 'solid', color: '#ffffff' },
    rl: { op: 'features', source: 'streets', layer: 'road_label' },
    names: {
      op: 'text',
      features: '@rl',
      'text-expr': ['get', 'name'],
      placement: 'line',
      size: 10,
      color: '#333333',
      'halo-width': 1.5,
      spacing: 200,
      'max-angle': 30,
      padding: 2,
      'max-extent': 64,
    },
    out: { op: 'blend', base: '@bg', over: '@names' },
  },
});

/** Pixels darker than the background's: label ink. */
function ink(r: { data: Float32Array }): number {
  let n = 0;
  for (let i = 0; i < r.data.length; i += 4) if (r.data[i]! < 0.6) n++;
  return n;
}

async function seamOn(style: object, z: number, x: number, y: number, T: number, ratio: number, backend?: Backend, dir = '.') {
  const r = Renderer.create(style, { loader: new NodeLoader({ baseDir: path.resolve(dir), allowOutside: true }) });
  return seam(r, z, x, y, T * ratio, { pixelRatio: ratio, backend });
}

fixturesDescribe('text: tile mosaics equal window renders (Natural Earth places)', () => {
  for (const [z, x, y] of [
    [2, 1, 1],
    [3, 4, 2],
    [4, 8, 5],
    [5, 16, 11],
  ] as const) {
    for (const ratio of [1, 2]) {
      test(`z${z} tiles ${x}..${x + 1} x ${y}..${y + 1}, pixel ratio ${ratio}`, async () => {
        expectSeamless(await seamOn(places(), z, x, y, 256, ratio), 0.9);
      });
    }
  }
});

describe('text: line labels on vector tiles: mosaics equal windows', () => {
  for (const ratio of [1, 2]) {
    test(`Chicago z13 2101..2102 x 3044..3045 (street names avoiding POI names), pixel ratio ${ratio}`, async () => {
      const r = await seamOn(chicago(), 13, 2101, 3044, 256, ratio);
      expectSeamless(r, 0.9);
    });
  }
});

fixturesDescribe('text: line labels on the Berlin street tile: mosaics equal windows', () => {
  for (const ratio of [1, 2]) {
    test(`z15 (the z14 tile overzoomed) 17602..17603 x 10742..10743, pixel ratio ${ratio}`, async () => {
      expectSeamless(await seamOn(berlin(), 15, 17602, 10742, 256, ratio), 0.9);
    });
  }
});

gpuDescribe('text: CPU/GPU parity', () => {
  test.each([
    ['places at z3 with blurred halos', () => places({ 'halo-blur': 1 }), { z: 3, x0: 1024, y0: 512, width: 256, height: 160, tileSize: 256 }],
    ['Chicago street and POI names', () => chicago(), { z: 13, x0: 2101 * 256, y0: 3044 * 256, width: 512, height: 512, tileSize: 256 }],
  ] as [string, () => object, Window][])('%s: within 2/255 on all but 0.01 %% of pixels', async (_, style, w) => {
    // The GPU's exact-area coverage (shared with fill-solid) misses by up to ~18/255 on about one
    // glyph-edge pixel in 100,000 (f32 area of thin triangles); everything else is within 2/255.
    const r = Renderer.create(style(), { loader: loader() });
    const cpu = await r.renderWindow(w, undefined, { backend: new CpuBackend() });
    const gpu = await r.renderWindow(w, undefined, { backend: GPU! });
    expect(ink(cpu.raster)).toBeGreaterThan(200);
    const d = diffRasters(cpu.raster, gpu.raster);
    if (process.env.PARITY_LOG) console.log(d);
    expect(d.over2).toBeLessThanOrEqual(Math.floor(w.width * w.height * 1e-4));
  });

  gpuTest('a GPU mosaic equals the GPU window (Chicago, pixel ratio 1 and 2)', async () => {
    for (const ratio of [1, 2]) expectSeamless(await seamOn(chicago(), 13, 2101, 3044, 96, ratio, GPU), 0.9);
  });

  (fixturesPresent ? gpuTest : test.skip)(
    'a GPU mosaic equals the GPU window (Natural Earth places z3, the Berlin tile at z15; pixel ratio 1 and 2)',
    async () => {
      for (const ratio of [1, 2]) {
        expectSeamless(await seamOn(places(), 3, 4, 2, 96, ratio, GPU), 0.9);
        expectSeamless(await seamOn(berlin(), 15, 17602, 10742, 96, ratio, GPU), 0.9);
      }
    },
  );
});

describe('text: avoid', () => {
  test("a node's labels never touch the placed labels of the node it avoids", async () => {
    const doc = chicago();
    const w: Window = { z: 13, x0: 2101 * 256, y0: 3044 * 256, width: 512, height: 512, tileSize: 256 };
    const only = (id: string) => Renderer.create({ ...doc, output: id }, { loader: loader() });
    const pois = toRGBA8((await only('pois').renderWindow(w)).raster);
    const names = toRGBA8((await only('names').renderWindow(w)).raster);
    const { avoid: _, ...alone } = doc.nodes.names;
    const free = toRGBA8(
      (await Renderer.create({ ...doc, output: 'names', nodes: { ...doc.nodes, names: alone } }, { loader: loader() }).renderWindow(w)).raster,
    );
    let both = 0;
    let bothFree = 0;
    let a = 0;
    let b = 0;
    for (let i = 3; i < pois.length; i += 4) {
      if (pois[i]! > 0) a++;
      if (names[i]! > 0) b++;
      if (pois[i]! > 0 && names[i]! > 0) both++;
      if (pois[i]! > 0 && free[i]! > 0) bothFree++;
    }
    expect(a).toBeGreaterThan(500);
    expect(b).toBeGreaterThan(500);
    expect(bothFree).toBeGreaterThan(0); // without avoid they do meet here
    expect(both).toBe(0);
  });

  test('avoid names text nodes only; its reach grows the avoided node inputs, not its canvas', () => {
    const r = Renderer.create(chicago(), { loader: loader() });
    const pois = r.plan.nodes.get('pois')!;
    const names = r.plan.nodes.get('names')!;
    expect(pois.margin).toBe(names.margin);
    // 4 R E = 4 x 2 x 48 beyond the names canvas; the POI features reach E (4R - 1) beyond that.
    expect(pois.reach).toBe(384);
    expect(r.plan.nodes.get('pl')!.margin).toBe(384 + 48 * 7);
  });
});

describe('text: warnings, legend, limits', () => {
  const doc = (text: unknown, font?: unknown) => ({
    output: 'out',
    sources: {
      p: {
        type: 'geojson',
        data: { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: text }, geometry: { type: 'Point', coordinates: [10, 20] } }] },
      },
    },
    nodes: { f: { op: 'features', source: 'p' }, out: { op: 'text', features: '@f', 'text-expr': ['get', 'name'], ...(font ? { font } : {}) } },
    legend: { entries: [{ label: 'names', from: 'out', geometry: 'point' }] },
  });

  test('a character no font holds is drawn as nothing and reported once per renderer, not per tile', async () => {
    const warnings: string[] = [];
    const r = Renderer.create(doc('Tōkyō 東京'), { loader: loader(), onWarning: (m) => warnings.push(m) });
    for (const x of [4, 5]) await r.renderTile({ z: 3, x, y: 3 });
    await r.renderTile({ z: 3, x: 4, y: 3 }, undefined, { tileSize: 512 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/'東' \(U\+6771\), '京' \(U\+4EAC\); label 'Tōkyō 東京' is drawn without them/);
  });

  test('a legend swatch of a text node shows a sample label', async () => {
    const r = Renderer.create(doc('x'), { loader: loader() });
    const sw = await r.renderLegendSwatch(0, undefined, { size: 32 });
    let alpha = 0;
    for (let i = 3; i < sw.data.length; i += 4) alpha += sw.data[i]!;
    expect(alpha).toBeGreaterThan(20);
  });

  test('a font that is no font is a render error naming the node and the font', async () => {
    const r = Renderer.create(doc('x', 'package.json'), { loader: loader() });
    await expect(r.renderTile({ z: 0, x: 0, y: 0 })).rejects.toThrow(/node 'out' field 'font': font 'package.json' is not a readable font: not a font/);
  });

  test("a max-extent above the margin's limit is a build error at the field", () => {
    expect(() => Renderer.create({ ...doc('x'), nodes: { ...doc('x').nodes, out: { ...doc('x').nodes.out, 'max-extent': 512 } } })).toThrow(
      /\/nodes\/out\/max-extent: 'max-extent' 512 needs a 3,584 px margin; the limit is 1,024 px/,
    );
  });
});

describe('text: bidi levels and font containers', () => {
  const levels = (s: string) => [...bidiLevels([...s])].join('');
  test('a left-to-right paragraph with a Hebrew word; a right-to-left one with digits and Latin', () => {
    expect(levels('ab אב cd')).toBe('00011000');
    expect(levels('אב 12 cd')).toBe('11122122');
    expect(levels('שלום, world')).toBe('11111122222');
  });

  test('TTF, WOFF and WOFF2 are told apart by their signature; anything else is refused', async () => {
    const nm = path.resolve('node_modules');
    expect(fontFormat(readFileSync(path.join(nm, 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf')))).toBe('ttf');
    expect(fontFormat(readFileSync(path.join(nm, '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff')))).toBe('woff');
    expect(fontFormat(readFileSync(path.join(nm, '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2')))).toBe('woff2');
    await expect(toSfnt(new TextEncoder().encode('<svg>not a font at all</svg>'))).rejects.toThrow(/not a font/);
    const woff = new Uint8Array(readFileSync(path.join(nm, '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff')));
    await expect(toSfnt(woff.subarray(0, 200))).rejects.toThrow(/WOFF table/);
  });
});
