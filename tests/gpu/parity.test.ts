// CPU/GPU parity per raster op on seeded random inputs and params. The CPU backend is the
// reference. Stated tolerances (premultiplied float values in [0, 1]):
//  - geometry ops (fill-solid, stroke-solid, circles) and solid: |cpu - gpu| <= 5e-4 per channel.
//    The GPU keeps rasters in rgba16float (rounding error <= 2^-12 = 2.4e-4 below 1.0), and its
//    coverage sums run in f32 where the CPU uses f64; measured: <= 2.44e-4.
//  - blend, blur, color-ramp: <= 1.5e-3 (f16 inputs and intermediates; un-premultiplying for the
//    blend modes and the luminance of a raster amplifies their rounding); measured: <= 8.3e-4.
//  - density (r32float field): |cpu - gpu| <= 1e-5 x max(field, 1); measured ~2e-7.
// and on 8-bit output every channel within 2/255 (the golden tolerance). PARITY_LOG=1 prints
// the measured differences.
import { CpuBackend, type Raster } from '../../src/index.js';
import { BLEND_MODES } from '../../src/ops/blend/cpu.js';
import { diffRasters, gpu, randomColor, randomFeatures, renderBoth, renderOn, rng, tap, testWindow } from './harness.js';

const W = testWindow(72);
const GEOMETRY_TOL = 5e-4;
const RASTER_TOL = 1.5e-3;

const source = (seed: number, counts: { polygons?: number; lines?: number; points?: number }) => ({
  pts: { type: 'geojson', data: randomFeatures(seed, W, counts, 24) },
});

function check(name: string, cpu: Raster, gpuR: Raster, tol: number): void {
  const d = diffRasters(cpu, gpuR);
  if (process.env.PARITY_LOG || d.maxFloat > tol || d.max8 > 2) console.error(`${name}: max float diff ${d.maxFloat.toExponential(2)}, max 8-bit diff ${d.max8.toFixed(2)}`);
  expect({ name, withinFloat: d.maxFloat <= tol, within8bit: d.max8 <= 2 }).toEqual({ name, withinFloat: true, within8bit: true });
}

/** A busy random raster: overlapping translucent polygons with per-feature colours. */
function randomRasterNodes(seed: number, prefix: string, polygons = 10): Record<string, object> {
  const r = rng(seed);
  const colors = Array.from({ length: 5 }, () => randomColor(r, 0.15));
  return {
    [`${prefix}f`]: { op: 'features', source: `${prefix}src` },
    [prefix]: {
      op: 'fill-solid',
      features: `@${prefix}f`,
      'fill-expr': ['match', ['get', 'k'], 0, colors[0], 1, colors[1], 2, colors[2], 3, colors[3], colors[4]],
      'fill-alpha-expr': ['get', 'v'],
    },
  };
}

function rasterSources(seed: number, prefix: string, polygons = 10): Record<string, object> {
  return { [`${prefix}src`]: { type: 'geojson', data: randomFeatures(seed, W, { polygons }, 24) } };
}

describe('CPU/GPU parity', () => {
  test('solid', async () => {
    const r = rng(1);
    for (let i = 0; i < 3; i++) {
      const style = { output: 'out', nodes: { out: { op: 'solid', color: randomColor(r, 0) } } };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`solid ${i}`, b.cpu, b.gpu, GEOMETRY_TOL);
    }
  });

  test('fill-solid: random polygons with holes, per-feature colour and alpha, antialias on and off', async () => {
    for (const [seed, antialias] of [[11, true], [12, true], [13, false]] as const) {
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: source(seed, { polygons: 14 }),
        nodes: {
          f: { op: 'features' },
          out: {
            op: 'fill-solid', features: '@f', antialias,
            'fill-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
            'fill-alpha': 0.4 + 0.6 * r(),
          },
        },
      };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`fill-solid seed ${seed}`, b.cpu, b.gpu, GEOMETRY_TOL);
    }
  });

  test('stroke-solid: every join and cap, random widths and offsets', async () => {
    const joins = ['miter', 'round', 'bevel'];
    const caps = ['butt', 'round', 'square'];
    for (let i = 0; i < 3; i++) {
      const seed = 20 + i;
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: source(seed, { polygons: 3, lines: 8 }),
        nodes: {
          f: { op: 'features' },
          out: {
            op: 'stroke-solid', features: '@f', join: joins[i], cap: caps[i], 'miter-limit': 1 + 3 * r(),
            width: 0.5 + 7 * r(), offset: i === 2 ? 1.5 * r() : 0,
            'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
            opacity: 0.5 + 0.5 * r(),
          },
        },
      };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`stroke-solid ${joins[i]}/${caps[i]}`, b.cpu, b.gpu, GEOMETRY_TOL);
    }
  });

  test('circles: random radii, stroke rings, per-feature paint', async () => {
    for (const seed of [31, 32]) {
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: source(seed, { points: 50 }),
        nodes: {
          f: { op: 'features' },
          out: {
            op: 'circles', features: '@f',
            'radius-expr': ['*', 12 * r() + 1, ['get', 'v']], 'radius-max': 14,
            'stroke-width': 2.5 * r(), 'stroke-color': randomColor(r),
            'color-expr': ['match', ['get', 'k'], 0, randomColor(r), 1, randomColor(r), randomColor(r)],
            opacity: 0.5 + 0.5 * r(),
          },
        },
      };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`circles seed ${seed}`, b.cpu, b.gpu, GEOMETRY_TOL);
    }
  });

  test('density: the r32float field itself, random radius, intensity and weights', async () => {
    const g = await gpu();
    if (!g) return;
    for (const seed of [41, 42]) {
      const r = rng(seed);
      const style = {
        output: 'out',
        sources: source(seed, { points: 80 }),
        nodes: {
          f: { op: 'features' },
          d: { op: 'density', features: '@f', radius: 4 + 20 * r(), intensity: 0.2 + 3 * r(), 'weight-expr': ['get', 'v'] },
          out: { op: 'color-ramp', field: '@d', stops: [{ value: 0, color: '#00000000' }, { value: 1, color: '#ff0000' }] },
        },
      };
      const tc = tap(new CpuBackend(), 'd');
      const tg = tap(g, 'd');
      await renderOn(tc.backend, style, W);
      await renderOn(tg.backend, style, W);
      const a = tc.value().data;
      const b = tg.value().data;
      expect(b.length).toBe(a.length);
      let max = 0;
      let worst = 0;
      for (let i = 0; i < a.length; i++) {
        max = Math.max(max, a[i]!);
        worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      }
      expect(max).toBeGreaterThan(0.05); // the field is not trivially empty
      expect(worst).toBeLessThanOrEqual(1e-5 * Math.max(max, 1));
    }
  });

  test('blend: all 16 modes with over, clip and erase composites, opacity and mask', async () => {
    const r = rng(51);
    const sources = { ...rasterSources(52, 'b'), ...rasterSources(53, 'o'), ...rasterSources(54, 'm', 4) };
    const inputs = { ...randomRasterNodes(55, 'b'), ...randomRasterNodes(56, 'o'), ...randomRasterNodes(57, 'm', 4) };
    const cases: { mode: string; composite?: string; clip?: boolean; mask?: boolean }[] = BLEND_MODES.map((mode, i) => ({ mode, clip: i % 4 === 3, mask: i % 5 === 2 }));
    cases.push({ mode: 'multiply', composite: 'erase' }, { mode: 'normal', composite: 'destination-out', mask: true });
    for (const c of cases) {
      const style = {
        output: 'out',
        sources,
        nodes: {
          ...inputs,
          out: { op: 'blend', base: '@b', over: '@o', mode: c.mode, opacity: 0.3 + 0.7 * r(), clip: c.clip ?? false, ...(c.composite ? { composite: c.composite } : {}), ...(c.mask ? { mask: '@m' } : {}) },
        },
      };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`blend ${c.mode}${c.clip ? ' clip' : ''}${c.composite ? ' ' + c.composite : ''}${c.mask ? ' mask' : ''}`, b.cpu, b.gpu, RASTER_TOL);
    }
  });

  test('blur: sigma 0, the exact path and the decimated fast path', async () => {
    const sources = rasterSources(61, 'i', 8);
    const inputs = randomRasterNodes(62, 'i', 8);
    for (const sigma of [0, 0.8, 3.1, 4.4, 9.7]) {
      const style = { output: 'out', sources, nodes: { ...inputs, out: { op: 'blur', input: '@i', sigma } } };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`blur sigma ${sigma}`, b.cpu, b.gpu, RASTER_TOL);
    }
    // A $param sigma below its bound: the padding stays that of the bound.
    const style = { output: 'out', params: { s: { type: 'number', default: 2, max: 12 } }, sources, nodes: { ...inputs, out: { op: 'blur', input: '@i', sigma: '$s' } } };
    const b = await renderBoth(style, W, { s: '5.5' });
    if (!b) return;
    check('blur $param sigma', b.cpu, b.gpu, RASTER_TOL);
  });

  test('color-ramp: stops in every colour space, a ramp expression, a raster by luminance', async () => {
    const r = rng(71);
    const sources = source(72, { points: 60 });
    const field = { f: { op: 'features' }, d: { op: 'density', features: '@f', radius: 14, intensity: 2.5 } };
    const stops = () => [0, 0.2 + 0.3 * r(), 0.6 + 0.3 * r(), 1.2].map((value) => ({ value, color: randomColor(r, 0) }));
    for (const space of ['rgb', 'hsl', 'hsv', 'hcl', 'lab']) {
      const style = { output: 'out', sources, nodes: { ...field, out: { op: 'color-ramp', field: '@d', space, stops: stops(), opacity: 0.5 + 0.5 * r() } } };
      const b = await renderBoth(style, W);
      if (!b) return;
      check(`color-ramp ${space}`, b.cpu, b.gpu, RASTER_TOL);
    }
    const ramp = ['interpolate', ['linear'], ['heatmap-density'], 0, 'rgba(0,0,255,0)', 0.3, 'royalblue', 0.6, 'cyan', 1, 'yellow'];
    let b = await renderBoth({ output: 'out', sources, nodes: { ...field, out: { op: 'color-ramp', field: '@d', 'ramp-expr': ramp } } }, W);
    if (!b) return;
    check('color-ramp ramp-expr', b.cpu, b.gpu, RASTER_TOL);
    const lumSources = { ...sources, ...rasterSources(73, 'i') };
    b = await renderBoth({ output: 'out', sources: lumSources, nodes: { ...randomRasterNodes(74, 'i'), out: { op: 'color-ramp', field: '@i', space: 'lab', stops: stops() } } }, W);
    if (!b) return;
    check('color-ramp raster by luminance', b.cpu, b.gpu, RASTER_TOL);
  });
});
