// Shared by the GPU tests: seeded random features, rendering one style on both backends, and a
// tap that captures an intermediate node's value (scalar fields cannot be a style's output).
import { Renderer, CpuBackend, toRGBA8, type Backend, type RenderStats, type Raster, type ScalarField, type Window } from '../../src/index.js';
import type { OpContext, OpDef } from '../../src/ops/types.js';
import { storageOf, type Handle, type Session } from '../../src/backends/backend.js';
import type { GpuBackend } from '../../src/backends/gpu/backend.js';
import type { GpuSession } from '../../src/backends/gpu/session.js';
import { gpuBackendForTests } from '../helpers/gpu.js';
import { rng } from '../helpers/random.js';

export { rng };

/** The test window: tile 3/4/2 at a small tile size (SwiftShader is slow). */
export function testWindow(tileSize = 64): Window {
  return { z: 3, x0: 4 * tileSize, y0: 2 * tileSize, width: tileSize, height: tileSize, tileSize };
}

/** World pixel (at the window's zoom and tile size) to [lon, lat]. */
function lonLat(w: Window, x: number, y: number): [number, number] {
  const size = w.tileSize * 2 ** w.z;
  const lon = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return [lon, lat];
}

type Pt = [number, number];

/** Random GeoJSON around a window (reaching `reach` pixels beyond it): star polygons (some with holes), random-walk lines, points. */
export function randomFeatures(seed: number, w: Window, counts: { polygons?: number; lines?: number; points?: number } = {}, reach = 16): object {
  const r = rng(seed);
  const feats: object[] = [];
  const px = (): Pt => [w.x0 - reach + r() * (w.width + 2 * reach), w.y0 - reach + r() * (w.height + 2 * reach)];
  const star = (c: Pt, rad: number, n: number, ccw: boolean): Pt[] => {
    const ring: Pt[] = [];
    for (let i = 0; i < n; i++) {
      const t = ((ccw ? -i : i) / n) * 2 * Math.PI;
      const rr = rad * (0.45 + 0.55 * r());
      ring.push(lonLat(w, c[0] + Math.cos(t) * rr, c[1] + Math.sin(t) * rr));
    }
    ring.push(ring[0]!);
    return ring;
  };
  for (let i = 0; i < (counts.polygons ?? 0); i++) {
    const c = px();
    const rad = 4 + r() * w.width * 0.35;
    const rings = [star(c, rad, 3 + Math.floor(r() * 12), false)];
    if (r() < 0.4) rings.push(star(c, rad * 0.3, 3 + Math.floor(r() * 5), true));
    feats.push({ type: 'Feature', properties: { k: Math.floor(r() * 5), v: r() }, geometry: { type: 'Polygon', coordinates: rings } });
  }
  for (let i = 0; i < (counts.lines ?? 0); i++) {
    let p = px();
    const coords: Pt[] = [lonLat(w, p[0], p[1])];
    const n = 2 + Math.floor(r() * 6);
    for (let k = 0; k < n; k++) {
      p = [p[0] + (r() - 0.5) * w.width * 0.6, p[1] + (r() - 0.5) * w.height * 0.6];
      coords.push(lonLat(w, p[0], p[1]));
    }
    feats.push({ type: 'Feature', properties: { k: Math.floor(r() * 5), v: r() }, geometry: { type: 'LineString', coordinates: coords } });
  }
  for (let i = 0; i < (counts.points ?? 0); i++) {
    const p = px();
    feats.push({ type: 'Feature', properties: { k: Math.floor(r() * 5), v: r() }, geometry: { type: 'Point', coordinates: lonLat(w, p[0], p[1]) } });
  }
  return { type: 'FeatureCollection', features: feats };
}

/** A random colour `#rrggbbaa` with alpha in [minAlpha, 1]. */
export function randomColor(r: () => number, minAlpha = 0.3): string {
  const h = (v: number) =>
    Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${h(r())}${h(r())}${h(r())}${h(minAlpha + (1 - minAlpha) * r())}`;
}

let gpuPromise: Promise<Backend | undefined> | undefined;

/** The GPU backend, or undefined (loudly) when no adapter exists and CI does not require one. */
export function gpu(): Promise<Backend | undefined> {
  return (gpuPromise ??= gpuBackendForTests());
}

export interface Both {
  cpu: Raster;
  gpu: Raster;
  stats: RenderStats;
}

export async function renderOn(
  backend: Backend,
  style: object,
  w: Window,
  params: Record<string, string> = {},
): Promise<{ raster: Raster; stats: RenderStats }> {
  const renderer = Renderer.create(style);
  return renderer.renderWindow(w, renderer.params(params), { backend });
}

/** Differences of two rasters: largest float difference and how 8-bit premultiplied channels compare. */
export function diffRasters(a: Raster, b: Raster): { maxFloat: number; max8: number; over1: number; over2: number } {
  let maxFloat = 0;
  for (let i = 0; i < a.data.length; i++) maxFloat = Math.max(maxFloat, Math.abs(a.data[i]! - b.data[i]!));
  const a8 = toRGBA8(a);
  const b8 = toRGBA8(b);
  let max8 = 0;
  let over1 = 0;
  let over2 = 0;
  for (let i = 0; i < a8.length; i += 4) {
    const aa = a8[i + 3]! / 255;
    const ba = b8[i + 3]! / 255;
    let m = Math.abs(a8[i + 3]! - b8[i + 3]!);
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(a8[i + c]! * aa - b8[i + c]! * ba));
    max8 = Math.max(max8, m);
    if (m > 1 + 1e-9) over1++;
    if (m > 2 + 1e-9) over2++;
  }
  return { maxFloat, max8, over1, over2 };
}

/**
 * Wraps a backend so that the value of node `id` is captured and brought to the CPU after the
 * render (for scalar fields, which a style cannot output). Costs the GPU one extra readback.
 */
export function tap(inner: Backend, id: string): { backend: Backend; value: () => Raster | ScalarField } {
  let captured: Raster | ScalarField | undefined;
  const backend: Backend = {
    name: inner.name,
    isSupported: () => inner.isSupported(),
    recover: (e) => inner.recover(e),
    begin(): Session {
      const s = inner.begin() as Session & Partial<Pick<GpuSession, 'readImage'>>;
      let value: Handle | undefined;
      return {
        get stats() {
          return s.stats;
        },
        paintTargets: s.paintTargets,
        async run(op: OpDef, ctx: OpContext) {
          const v = await s.run(op, ctx);
          if (ctx.id === id) value = v;
          return v;
        },
        crop: (v, from, to) => s.crop(v, from, to),
        release: (v) => {
          // The tapped value's storage must survive until read() captures it.
          if (!value || storageOf(v) !== storageOf(value)) s.release(v);
        },
        async read(v) {
          const out = await s.read(v);
          if (value) captured = s.readImage ? await s.readImage(value) : (value as Raster | ScalarField);
          return out;
        },
        end: () => s.end(),
      };
    },
  };
  return {
    backend,
    value: () => {
      if (!captured) throw new Error(`node ${id} was not captured`);
      return captured;
    },
  };
}

export type { GpuBackend };

// --- Honest skips and parity checks shared by the op folders' tests -------------------------

/** The GPU backend resolved once at module load: undefined (loudly) without an adapter, a failure under TILEGRAPH_REQUIRE_GPU=1. */
export const GPU: Backend | undefined = await gpu();

/** `test` when a GPU adapter exists, else `test.skip` (reported as skipped, never as passed). */
export const gpuTest: typeof test = GPU ? test : (test.skip as typeof test);
/** `describe` when a GPU adapter exists, else `describe.skip`. */
export const gpuDescribe: typeof describe = GPU ? describe : (describe.skip as typeof describe);

/** Stated parity tolerances (premultiplied float values in [0, 1]); see tests/gpu/parity.test.ts. */
export const GEOMETRY_TOL = 5e-4;
export const RASTER_TOL = 1.5e-3;

/** Renders a style on both backends (inside gpuTest/gpuDescribe) and checks float and 8-bit parity. */
export async function checkParity(name: string, style: object, w: Window, tol = RASTER_TOL, params: Record<string, string> = {}): Promise<Both> {
  if (!GPU) throw new Error('checkParity runs only inside gpuTest / gpuDescribe');
  const cpu = await renderOn(new CpuBackend(), style, w, params);
  const gr = await renderOn(GPU, style, w, params);
  const d = diffRasters(cpu.raster, gr.raster);
  if (process.env.PARITY_LOG || d.maxFloat > tol || d.max8 > 2)
    console.error(`${name}: max float diff ${d.maxFloat.toExponential(2)}, max 8-bit diff ${d.max8.toFixed(2)}`);
  expect({ name, withinFloat: d.maxFloat <= tol, within8bit: d.max8 <= 2 }).toEqual({ name, withinFloat: true, within8bit: true });
  return { cpu: cpu.raster, gpu: gr.raster, stats: gr.stats };
}

// --- Random inputs for the parity tests -------------------------------------------------------

/** The parity tests' window: a 72 px tile (small: SwiftShader is slow). */
export const PARITY_WINDOW = testWindow(72);

/** A geojson source `pts` of random features around PARITY_WINDOW. */
export const randomSource = (seed: number, counts: { polygons?: number; lines?: number; points?: number }) => ({
  pts: { type: 'geojson', data: randomFeatures(seed, PARITY_WINDOW, counts, 24) },
});

/**
 * A style whose output `out` is the op `op` drawing node `f`, the features of `sources` (a geometry
 * op's parity test): `fields` are the op's other fields, `nodes` any further nodes it reads.
 */
export function featuresStyle(sources: Record<string, unknown>, op: string, fields: Record<string, unknown>, nodes: Record<string, unknown> = {}) {
  const source = Object.keys(sources)[0];
  return { output: 'out', sources, nodes: { f: { op: 'features', source }, ...nodes, out: { op, features: '@f', ...fields } } };
}

/** A busy random raster (node `prefix`): overlapping translucent polygons with per-feature colours. */
export function randomRasterNodes(seed: number, prefix: string): Record<string, object> {
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

/** The source of randomRasterNodes(…, prefix). */
export function rasterSources(seed: number, prefix: string, polygons = 10): Record<string, object> {
  return { [`${prefix}src`]: { type: 'geojson', data: randomFeatures(seed, PARITY_WINDOW, { polygons }, 24) } };
}
