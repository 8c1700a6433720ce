// MapLibre GL JS's render tests run through our converter, with MapLibre's harness rules
// (test/integration/render/run_render_tests.ts): the viewport from the style (center, zoom) and
// metadata.test (width, height, pixelRatio, default 512 x 512 at ratio 1), pixelmatch with
// threshold 0.1285, pass when the differing fraction is <= `allowed` (default 0.00025) against the
// best of the test's expected*.png. The expected images are MapLibre's own renders: the witness.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { Renderer, toRGBA8 } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import type { Window } from '../../src/types.js';

export const ROOT = path.resolve('tests/maplibre');
export const TESTS = path.join(ROOT, 'render-tests');
export const ASSETS = path.join(ROOT, 'assets');

export interface TestMeta {
  width: number;
  height: number;
  pixelRatio: number;
  allowed: number;
  threshold: number;
  operations?: unknown[][];
}

export interface Outcome {
  id: string;
  /** pass: within `allowed`; fail: rendered, too different; error: could not render (reason). */
  status: 'pass' | 'fail' | 'error';
  /** Differing fraction against the closest expected image. */
  difference?: number;
  allowed: number;
  reason?: string;
  actual?: Uint8ClampedArray;
  width?: number;
  height?: number;
}

/** Every test id (its folder under render-tests, e.g. 'fill-color/literal'), sorted. */
export function listTests(dir = TESTS, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const id = prefix ? `${prefix}/${e.name}` : e.name;
    if (existsSync(path.join(dir, id, 'style.json'))) out.push(id);
    else out.push(...listTests(dir, id));
  }
  return out.sort();
}

/** The layer type a test exercises: its category's prefix ('circle-stroke-width' -> 'circle'). */
export function layerTypeOf(id: string): string {
  const cat = id.split('/')[0]!;
  for (const t of ['background', 'fill', 'line', 'circle', 'heatmap', 'hillshade', 'raster', 'symbol', 'text', 'icon']) if (cat.startsWith(t)) return t;
  return 'other';
}

const WORLD = 512;

function mercator(lng: number, lat: number): [number, number] {
  const s = Math.sin((Math.max(-85.051129, Math.min(85.051129, lat)) * Math.PI) / 180);
  return [(lng + 180) / 360, 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)];
}

interface TestLayer {
  id: string;
  paint?: Record<string, unknown>;
  layout?: Record<string, unknown>;
  filter?: unknown;
  minzoom?: number;
  maxzoom?: number;
}

/** A render test's style.json: a MapLibre style with its test options in metadata.test. */
interface TestStyle {
  layers: TestLayer[];
  sources: Record<string, unknown>;
  center?: [number, number];
  zoom?: number;
  bearing?: number;
  pitch?: number;
  metadata?: { test?: Partial<TestMeta> };
}

/** Apply the static operations of metadata.test.operations to the style (those that change what is drawn). */
function applyOperations(style: TestStyle, ops: unknown[][]): string | undefined {
  for (const op of ops) {
    const [name, ...args] = op as [string, ...unknown[]];
    const layer = (id: unknown): TestLayer => style.layers.find((l) => l.id === id) ?? { id: String(id) };
    switch (name) {
      case 'wait':
        break;
      case 'setPaintProperty':
        (layer(args[0]).paint ??= {})[String(args[1])] = args[2];
        break;
      case 'setLayoutProperty':
        (layer(args[0]).layout ??= {})[String(args[1])] = args[2];
        break;
      case 'setFilter':
        layer(args[0]).filter = args[1];
        break;
      case 'addLayer': {
        const i = args[1] ? style.layers.findIndex((l) => l.id === args[1]) : -1;
        if (i < 0) style.layers.push(args[0] as TestLayer);
        else style.layers.splice(i, 0, args[0] as TestLayer);
        break;
      }
      case 'removeLayer':
        style.layers = style.layers.filter((l) => l.id !== args[0]);
        break;
      case 'addSource':
        style.sources[String(args[0])] = args[1];
        break;
      case 'setZoom':
        style.zoom = Number(args[0]);
        break;
      case 'setCenter':
        style.center = args[0] as [number, number];
        break;
      case 'setLayerZoomRange':
        Object.assign(layer(args[0]), { minzoom: args[1], maxzoom: args[2] });
        break;
      default:
        return `the test's operation '${name}' is not applied by this harness`;
    }
  }
  return undefined;
}

/** Rewrite MapLibre's test URLs (local://tiles/...) to paths under tests/maplibre/assets. */
function localize(v: unknown): unknown {
  if (typeof v === 'string') return v.startsWith('local://') ? v.slice('local://'.length) : v;
  if (Array.isArray(v)) return v.map(localize);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, localize(x)]));
  return v;
}

export function readMeta(style: TestStyle): TestMeta {
  return { width: 512, height: 512, pixelRatio: 1, allowed: 0.00025, threshold: 0.1285, ...(style.metadata?.test ?? {}) };
}

/** Run one render test; never throws (a failure to render is an 'error' outcome with its reason). */
export async function runTest(id: string): Promise<Outcome> {
  const dir = path.join(TESTS, id);
  const style = JSON.parse(readFileSync(path.join(dir, 'style.json'), 'utf8')) as TestStyle;
  const meta = readMeta(style);
  const base: Outcome = { id, status: 'error', allowed: meta.allowed };
  const opProblem = applyOperations(style, meta.operations ?? []);
  if (opProblem) return { ...base, reason: opProblem };
  if (style.bearing || style.pitch) return { ...base, reason: 'the test rotates or tilts the map' };
  const zoom: number = style.zoom ?? 0;
  const z = Math.floor(zoom);
  const pr = meta.pixelRatio;
  // A fractional zoom: a whole number of pixels per tile at the zoom below (our windows take whole
  // tile sizes), within half a pixel per tile of MapLibre's: zoom 0.5 is 724 px tiles at zoom 0
  // (MapLibre's 724.08), expressions see zoom 0.49984, and points move by at most
  // half the viewport times 0.5 / 724 (0.2 px across 512 px).
  const tileSize = Math.round(WORLD * pr * 2 ** (zoom - z));
  const W = Math.round(meta.width * pr);
  const H = Math.round(meta.height * pr);
  const [mx, my] = mercator(...(style.center ?? [0, 0]));
  const world = tileSize * 2 ** z;
  const cx = mx * world;
  const cy = my * world;
  // MapLibre aligns rasters to the pixel grid by rounding the centre; vector geometry keeps the
  // exact centre: our window takes the rounded origin and moves the geometry by the difference.
  const x0 = Math.round(cx) - Math.ceil(W / 2);
  const y0 = Math.round(cy) - Math.ceil(H / 2);
  const shift: [number, number] = [(x0 - (cx - W / 2)) / pr, (y0 - (cy - H / 2)) / pr];
  delete style.metadata;
  let renderer: Renderer;
  try {
    renderer = Renderer.create(localize(style) as object, { loader: new NodeLoader({ baseDir: ASSETS }), maplibre: { shift, viewport: true } });
  } catch (e) {
    return { ...base, reason: `conversion: ${(e as Error).message.split('\n')[0]}` };
  }
  const win: Window = { z, x0, y0, width: W, height: H, tileSize, pixelRatio: pr };
  let actual: Uint8ClampedArray;
  try {
    actual = toRGBA8((await renderer.renderWindow(win)).raster);
  } catch (e) {
    return { ...base, reason: `render: ${(e as Error).message.split('\n')[0]}` };
  }
  let best = Infinity;
  for (const f of readdirSync(dir).filter((n) => /^expected.*\.png$/.test(n))) {
    const exp = PNG.sync.read(readFileSync(path.join(dir, f)));
    if (exp.width !== W || exp.height !== H) continue;
    const diff = pixelmatch(actual, exp.data, undefined, W, H, { threshold: meta.threshold }) / (W * H);
    best = Math.min(best, diff);
  }
  if (!Number.isFinite(best)) return { ...base, reason: 'no expected image of the viewport size' };
  return { id, status: best <= meta.allowed ? 'pass' : 'fail', difference: best, allowed: meta.allowed, actual, width: W, height: H };
}
