// Rasters marked one value everywhere (src/backends/cpu/uniform.ts): solid, paints that draw
// nothing, crops, blur and blend of such rasters compute one pixel with the op's own per-pixel
// arithmetic and fill their output instead of running over the canvas. The oracle is the same
// render with every mark forgotten as soon as it is made (each op's general path, the kernels
// tested against their references and witnesses elsewhere): the pixels must be the same bits.
import path from 'node:path';
import { CpuBackend, Renderer, releaseRaster, tileWindow, type Raster } from '../../src/index.js';
import type { CpuSession } from '../../src/backends/cpu/backend.js';
import { acquire, acquireUniform, release } from '../../src/backends/cpu/pool.js';
import { fillPixel, markUniform, uniformOf, forgetUniform } from '../../src/backends/cpu/uniform.js';
import { storageOf, type Handle } from '../../src/backends/backend.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { BLEND_MODES } from '../../src/ops/blend/cpu.js';
import { ROOT } from '../server/fixtures.js';
import { NodeCache } from '../../src/render/node-cache.js';

/** A CPU backend whose sessions forget every mark as soon as an op or a crop makes it: no kernel takes its one-value path. */
class UnmarkedBackend extends CpuBackend {
  override begin(): CpuSession {
    const s = super.begin();
    const forget = <T extends Handle>(v: T): T => {
      const d = storageOf(v);
      if (d instanceof Float32Array) forgetUniform(d);
      return v;
    };
    const run = s.run.bind(s);
    const crop = s.crop.bind(s);
    s.run = async (op, ctx) => forget(await run(op, ctx));
    s.crop = (v, from, to) => forget(crop(v, from, to));
    return s;
  }
}

const bits = (r: Raster) => Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength);

/** A GeoJSON square polygon feature over lon/lat [x0, x1] x [y0, y1]. */
const square = (x0: number, y0: number, x1: number, y1: number) => ({
  type: 'Feature',
  properties: {},
  geometry: {
    type: 'Polygon',
    coordinates: [
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
        [x0, y0],
      ],
    ],
  },
});

/** Renders tile `t` with marks and without; expects the same bits; returns whether the marked render's output was marked. */
async function sameBits(renderer: Renderer, t: [number, number, number], params = renderer.params({}), size = 256): Promise<boolean> {
  const [z, x, y] = t;
  const win = tileWindow({ z, x, y }, size);
  const { raster: want } = await renderer.renderWindow(win, params, { backend: new UnmarkedBackend() });
  const { raster: got } = await renderer.renderWindow(win, params, { backend: new CpuBackend() });
  const marked = uniformOf(got.data) !== undefined;
  expect({ tile: t.join('/'), same: bits(got).equals(bits(want)) }).toEqual({ tile: t.join('/'), same: true });
  releaseRaster(want);
  releaseRaster(got);
  return marked;
}

describe("one-value rasters: the same bits as every op's general path", () => {
  test('the world example: every zoom-4 tile (open sea, coasts, land), then a quarter again (buffers back from the pool)', async () => {
    const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
    let marked = 0;
    for (let pass = 0; pass < 2; pass++)
      for (let y = 0; y < 16; y++) for (let x = pass * (y % 4); x < 16; x += 1 + 3 * pass) if (await sameBits(style.renderer, [4, x, y])) marked++;
    // Open sea: a fifth of the tiles end marked (their PNG is then one colour's bytes).
    expect(marked).toBeGreaterThan(50);
  }, 120_000);

  test('the world example with other params (no shadow, a translucent sea, wide borders)', async () => {
    const style = await loadStyleFile(path.join(ROOT, 'examples/world/style.json'));
    for (const p of [{ shadow: '0' }, { ocean: '#a9cfe680', 'shadow-opacity': '1' }, { 'border-width': '4', shadow: '12' }]) {
      const params = style.renderer.params(p);
      for (const t of [
        [4, 0, 0],
        [4, 8, 5],
        [4, 11, 6],
        [4, 2, 9],
        [3, 4, 2],
      ] as [number, number, number][])
        await sameBits(style.renderer, t, params);
    }
  });

  test('toner: street tiles and tiles beyond its data (fill-pattern, strokes and labels drawing nothing)', async () => {
    const style = await loadStyleFile(path.join(ROOT, 'examples/toner/style.json'));
    let marked = 0;
    for (const t of [
      [14, 4200, 6089],
      [14, 4205, 6095],
      [14, 12392, 7318],
      [14, 12393, 7318],
    ] as [number, number, number][])
      if (await sameBits(style.renderer, t)) marked++;
    expect(marked).toBe(2); // the two beyond the data: paper alone
  }, 60_000);

  test('stipple and watercolour: zoom-4 tiles of open sea and coast', async () => {
    for (const name of ['stipple', 'watercolor']) {
      const style = await loadStyleFile(path.join(ROOT, `examples/${name}/style.json`));
      for (const t of [
        [4, 0, 0],
        [4, 1, 8],
        [4, 8, 5],
        [4, 11, 6],
        [4, 14, 12],
        [4, 5, 15],
      ] as [number, number, number][])
        await sameBits(style.renderer, t);
    }
  }, 60_000);

  const colours = ['#a9cfe6', '#10304a80', '#00000000', '#ffffff', '#ff000001', '#3c7a2bcc'];

  test('blend of solids: every mode and composite, with opacity and a mask', async () => {
    for (const mode of BLEND_MODES)
      for (const composite of [{}, { clip: true }, { composite: 'erase' }])
        for (const [i, base] of colours.entries()) {
          const over = colours[(i + 1 + BLEND_MODES.indexOf(mode)) % colours.length]!;
          const mask = colours[(i + 3) % colours.length]!;
          for (const extra of [{}, { opacity: 0.37 }, { mask: '@mask' }]) {
            const r = Renderer.create({
              output: 'out',
              nodes: {
                base: { op: 'solid', color: base },
                over: { op: 'solid', color: over },
                mask: { op: 'solid', color: mask },
                out: { op: 'blend', base: '@base', over: '@over', mode, ...composite, ...extra },
              },
            });
            expect(await sameBits(r, [3, 2, 5], undefined, 64)).toBe(true);
          }
        }
  }, 60_000);

  test('a transparent base under clip or erase gives +0, marked, whatever the source, opacity and mask (also NaN, -0, out-of-range values)', async () => {
    // Witness: the closed form. Atop keeps the base's alpha (0) and scales the source by it, erase
    // scales the base (0) by 1 - as: every channel +0. The general path (marks forgotten) is run
    // on a source and mask holding odd values too, written by a hook after their nodes run.
    const odd = [Number.NaN, -0, -0.5, 1.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.25];
    class OddBackend extends UnmarkedBackend {
      override begin(): CpuSession {
        const s = super.begin();
        const run = s.run.bind(s);
        s.run = async (op, ctx) => {
          const v = await run(op, ctx);
          const d = storageOf(v);
          if ((ctx.id === 'src' || ctx.id === 'mask') && d instanceof Float32Array) for (let i = 0; i < d.length; i += 29) d[i] = odd[(i / 29) % odd.length]!;
          return v;
        };
        return s;
      }
    }
    for (const mode of BLEND_MODES)
      for (const composite of [{ clip: true }, { composite: 'erase' }])
        for (const extra of [{}, { opacity: 0.37 }, { mask: '@mask' }]) {
          const r = Renderer.create({
            output: 'out',
            nodes: {
              base: { op: 'solid', color: '#00000000' },
              field: { op: 'noise', 'scale-px': 9, octaves: 2, seed: 4 },
              src: {
                op: 'color-ramp',
                field: '@field',
                stops: [
                  { value: 0.2, color: '#ff000000' },
                  { value: 0.8, color: '#2060c0cc' },
                ],
              },
              mask: {
                op: 'color-ramp',
                field: '@field',
                stops: [
                  { value: 0.3, color: '#00000000' },
                  { value: 0.7, color: '#000000' },
                ],
              },
              out: { op: 'blend', base: '@base', over: '@src', mode, ...composite, ...extra },
            },
          });
          const win = tileWindow({ z: 3, x: 2, y: 5 }, 64);
          const params = r.params({});
          const where = `${mode} ${JSON.stringify(composite)} ${JSON.stringify(extra)}`;
          const zero = (x: Raster) => bits(x).equals(Buffer.alloc(x.data.byteLength));
          const { raster: general } = await r.renderWindow(win, params, { backend: new OddBackend() });
          const { raster: marked } = await r.renderWindow(win, params, { backend: new CpuBackend() });
          expect({ where, general: zero(general), marked: zero(marked), mark: Array.from(uniformOf(marked.data) ?? []) }).toEqual({
            where,
            general: true,
            marked: true,
            mark: [0, 0, 0, 0],
          });
          releaseRaster(general);
          releaseRaster(marked);
        }
  }, 60_000);

  test('blur of solids and of an empty fill (sigma 0.5-12), and what reads it', async () => {
    for (const colour of colours)
      for (const sigma of [0, 0.5, 3, 12]) {
        const r = Renderer.create({
          output: 'out',
          sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } },
          nodes: {
            a: { op: 'solid', color: colour },
            f: { op: 'features', source: 's' },
            empty: { op: 'fill-solid', features: '@f', fill: '#123456' },
            blurred: { op: 'blur', input: '@a', sigma },
            blurredEmpty: { op: 'blur', input: '@empty', sigma },
            mixed: { op: 'blend', base: '@blurred', over: '@blurredEmpty', mode: 'screen', opacity: 0.6 },
            out: { op: 'blend', base: '@mixed', over: '@blurred', mode: 'multiply' },
          },
        });
        // sigma 0 is an exact crop (not marked after the blur, then a general blend).
        expect(await sameBits(r, [2, 1, 1], undefined, 64)).toBe(sigma > 0);
      }
  });

  test('a paint drawn onto a marked base loses the mark; one that draws nothing keeps it', async () => {
    const style = (feature: unknown) =>
      Renderer.create({
        output: 'out',
        sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [feature] } } },
        nodes: {
          sea: { op: 'solid', color: '#a9cfe6' },
          f: { op: 'features', source: 's' },
          land: { op: 'fill-solid', features: '@f', fill: '#f3efe2' },
          // A plain source-over of a paint: the fill is drawn straight onto the sea (fused).
          withLand: { op: 'blend', base: '@sea', over: '@land' },
          // Reads the composite's mark: a stale one would blur the land away.
          out: { op: 'blur', input: '@withLand', sigma: 2 },
        },
      });
    // Zoom 2, tile 1/1 covers lon -90..0, lat 0..66.5.
    expect(await sameBits(style(square(-60, 20, -30, 40)), [2, 1, 1])).toBe(false);
    expect(await sameBits(style(square(60, 20, 90, 40)), [2, 1, 1])).toBe(true);
    // A fill over the whole canvas (all land) replaces every pixel with its opaque paint: marked
    // (Compositor.covered), the blur takes its one-value path, the same bits as its general path.
    expect(await sameBits(style(square(-120, -10, 30, 80)), [2, 1, 1])).toBe(true);
  });

  test("a blend whose one value is its base's own bits hands on the base's array: paints onto it, the base's other readers and a node cache see the same bits", async () => {
    const style = (feature: unknown, opaque: boolean, nodeCache?: NodeCache) =>
      Renderer.create(
        {
          output: 'out',
          params: { op: { type: 'number', default: 0.5, min: 0, max: 1 } },
          sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [feature] } } },
          nodes: {
            sea: { op: 'solid', color: opaque ? '#a9cfe6' : '#a9cfe680' },
            none: { op: 'solid', color: '#00000000' },
            // Open sea under a shadow that is +0 everywhere: the sea's bits, the sea's array.
            shaded: { op: 'blend', base: '@sea', over: '@none', opacity: '$op' },
            f: { op: 'features', source: 's' },
            land: { op: 'fill-solid', features: '@f', fill: '#f3efe2' },
            // Fused: the fill is drawn onto the shaded sea, which the sea's other reader must not see.
            withLand: { op: 'blend', base: '@shaded', over: '@land' },
            tint: { op: 'solid', color: '#3c7a2bcc' },
            other: { op: 'blend', base: '@sea', over: '@tint', mode: 'multiply' },
            out: { op: 'blend', base: '@withLand', over: '@other', opacity: 0.5 },
          },
        },
        { nodeCache },
      );
    for (const opaque of [true, false])
      for (const feature of [square(-60, 20, -30, 40), square(60, 20, 90, 40), square(-120, -10, 30, 80)]) {
        const r = style(feature, opaque);
        await sameBits(r, [2, 1, 1]);
        // A node cache keeps the sea and the shaded sea (one array): renders with other params paint onto copies.
        // The oracle: the same renders through a node cache of its own, every mark forgotten (no alias).
        const cached = style(feature, opaque, new NodeCache());
        const oracle = style(feature, opaque, new NodeCache());
        const win = tileWindow({ z: 2, x: 1, y: 1 }, 256);
        let hits = 0;
        for (const op of ['0.5', '0.25', '0.5', '1']) {
          const { raster: want } = await oracle.renderWindow(win, oracle.params({ op }), { backend: new UnmarkedBackend() });
          const { raster: got, stats } = await cached.renderWindow(win, cached.params({ op }), { backend: new CpuBackend() });
          if (op !== '0.25' && op !== '1') hits += stats.cached;
          expect(bits(got).equals(bits(want))).toBe(true);
          releaseRaster(want);
          releaseRaster(got);
        }
        expect(hits).toBeGreaterThan(0); // the second render at 0.5 reads the cached sea and shaded sea
      }
  });

  test('strokes that draw nothing (brush dabs, MapLibre-profile lines) are marked: alone transparent, onto a marked base keeping its mark', async () => {
    const line = (coordinates: number[][]) => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } });
    const strokes: Record<string, Record<string, unknown>> = {
      brush: { op: 'stroke', features: '@f', brush: '@pen', 'scatter-px': 1, 'size-jitter': 0.5, seed: 1 },
      'brush-plain': { op: 'stroke', features: '@f', brush: '@pen' },
      maplibre: { op: 'stroke-solid', features: '@f', profile: 'maplibre', width: 3, color: '#40302080', cap: 'round', join: 'round' },
      'maplibre-dashed': { op: 'stroke-solid', features: '@f', profile: 'maplibre', width: 2, 'dash-array': [2, 1] },
    };
    for (const [kind, stroke] of Object.entries(strokes))
      for (const fused of [false, true]) {
        const style = (feature: unknown) =>
          Renderer.create({
            output: 'out',
            sources: { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [feature] } } },
            nodes: {
              blank: { op: 'solid', color: '#00000000' },
              f: { op: 'features', source: 's' },
              pen: { op: 'brush-solid', 'width-px': 3, color: '#9a6a3a', hardness: 0.3 },
              line: stroke,
              // Fused: the line drawn straight onto a transparent solid (marked +0).
              withLine: { op: 'blend', base: '@blank', over: '@line' },
              wander: { op: 'noise', 'scale-px': 28, octaves: 2, seed: 5, output: 'raster' },
              // Displace takes its shortcut only for an input marked +0 (it scans nothing):
              // the output is then marked too; a stale mark would wipe the line.
              out: { op: 'displace', input: fused ? '@withLine' : '@line', displacement: '@wander', 'amp-px': 4, boundary: 'transparent' },
            },
          });
        // Zoom 2, tile 1/1 covers lon -90..0, lat 0..66.5; the second line lies in the source's
        // buffer east of it (its features reach the node), beyond the strokes' reach.
        const where = `${kind}${fused ? ' fused' : ''}`;
        for (const [coords, drawn] of [
          [
            [
              [-70, 20],
              [-40, 45],
              [-20, 30],
            ],
            true,
          ],
          [
            [
              [12, 20],
              [14, 45],
              [30, 30],
            ],
            false,
          ],
        ] as [number[][], boolean][])
          expect({ where, drawn, marked: await sameBits(style(line(coords)), [2, 1, 1]) }).toEqual({ where, drawn, marked: !drawn });
      }
  });
});

describe('the buffer pool and marks', () => {
  test('a buffer released marked +0 is handed out zeroed without a fill; any other is filled with zeros', () => {
    const n = 8192;
    const zero = acquire(n);
    markUniform(zero, [0, 0, 0, 0]);
    release(zero);
    expect(uniformOf(zero)).toBeUndefined(); // released: the next owner writes it
    const again = acquire(n);
    expect(again).toBe(zero);
    expect(again.every((v) => Object.is(v, 0))).toBe(true);
    // Marked another value (or -0): filled with +0 when handed out zeroed.
    for (const px of [
      [0.5, 0.5, 0.5, 1],
      [-0, 0, 0, 0],
    ]) {
      fillPixel(again, px);
      markUniform(again, px);
      release(again);
      const z = acquire(n);
      expect(z).toBe(again);
      expect(z.every((v) => Object.is(v, 0))).toBe(true);
    }
    // Handed out unzeroed, a buffer released marked +0 is not taken as zeroed by the next acquire.
    markUniform(again, [0, 0, 0, 0]);
    release(again);
    const w = acquire(n, false);
    w.fill(3);
    release(w);
    expect(acquire(n)[7]).toBe(0);
  });

  test('a caller asking for zeros gets a buffer released marked +0 before one released later; a caller writing every value the other', () => {
    const n = 12288;
    for (const zeroFirst of [true, false]) {
      // From the pool (canvases in the arena where there is one, src/util/wasm-arena.ts).
      const zero = acquire(n);
      markUniform(zero, [0, 0, 0, 0]);
      const ink = acquire(n, false).fill(0.5);
      release(zero);
      release(ink);
      expect(acquire(n, zeroFirst) === (zeroFirst ? zero : ink)).toBe(true);
      const next = acquire(n, !zeroFirst);
      expect(next === (zeroFirst ? ink : zero)).toBe(true);
      if (!zeroFirst) expect(next.every((v) => Object.is(v, 0))).toBe(true);
    }
  });

  test('acquireUniform: a buffer released holding the very value asked for comes back without a fill; any other value, or none known, is filled', () => {
    const n = 16384;
    const sea = [0.66, 0.81, 0.9, 1];
    const first = acquireUniform(n, sea);
    const want = Float32Array.from({ length: n }, (_, i) => sea[i % 4]!);
    expect(bits({ kind: 'raster', width: n / 4, height: 1, data: first }).equals(bits({ kind: 'raster', width: n / 4, height: 1, data: want }))).toBe(true);
    expect(Array.from(uniformOf(first)!)).toEqual(Array.from(Float32Array.from(sea)));
    // Released marked: the same buffer back, untouched (a fill would not be seen, so poison a
    // pixel the mark does not know of: acquireUniform must not have written it)
    release(first);
    first[5] = 9; // the poison (owners never write a released buffer; this test does, to see)
    const again = acquireUniform(n, sea);
    expect(again).toBe(first);
    expect(again[5]).toBe(9); // not filled again
    again[5] = Math.fround(sea[1]!);
    // A plain caller does not take a buffer holding a known value while another is pooled.
    const plain = acquire(n, false);
    plain.fill(7);
    release(plain);
    release(again);
    const other = acquire(n, false);
    expect(other).toBe(plain);
    release(other);
    // Another value (its bits differ by one ulp, or -0 for +0): filled, not reused as it is.
    const seaAgain = acquireUniform(n, sea);
    expect(seaAgain).toBe(again);
    release(seaAgain);
    const near = [0.66, 0.81, 0.9, Math.fround(1 - 2 ** -24)];
    const filled = acquireUniform(n, near);
    expect(filled.every((v, i) => Object.is(v, Math.fround(near[i % 4]!)))).toBe(true);
    release(filled);
    for (const px of [
      [0, 0, 0, 0],
      [-0, 0, 0, 0],
    ]) {
      const z = acquireUniform(n, px);
      expect(z.every((v, i) => Object.is(v, px[i % 4]))).toBe(true);
      expect(Array.from(uniformOf(z)!).map((v) => Object.is(v, -0))).toEqual(px.map((v) => Object.is(v, -0)));
      release(z);
    }
    // A buffer holding the value but written after its release mark was taken is never handed out
    // as holding it: marks are forgotten on release, the pool keeps its own record.
    const b = acquireUniform(n, sea);
    release(b);
    const c = acquire(n, false); // takes b (no other buffer of this size is pooled)
    c.fill(0.25);
    release(c);
    const d = acquireUniform(n, sea);
    expect(d.every((v, i) => Object.is(v, Math.fround(sea[i % 4]!)))).toBe(true);
    release(d);
  });
});
