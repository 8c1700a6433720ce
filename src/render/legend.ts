// Legend swatches: a legend entry's `from` node rendered over stand-in features (spec §2.4),
// so a host can draw each entry's symbol beside the map with the current param values.
import { RenderError } from '../errors.js';
import { topoOrder, type Plan } from '../graph/build.js';
import { ringArea, reverseRing } from '../geometry/clip.js';
import { ParamValues, parseHexColor } from '../params/index.js';
import type { ColorSpace } from '../backends/cpu/color.js';
import { exprTable, makeSampler, resolveStops, stopTables } from '../ops/color-ramp/plan.js';
import type { FeatureSource, SourceRegistry } from '../sources/types.js';
import type { LegendEntry } from '../style/types.js';
import type { FeatureGroup, Raster } from '../types.js';
import type { Backend } from '../backends/backend.js';
import { render } from './render.js';

/** Stand-in features of an entry in a size x size window at the world's origin. */
export function standInFeatures(entry: LegendEntry, size: number): FeatureGroup[] {
  const m = Math.max(1, Math.round(size * 0.15));
  const s = size;
  const properties = { ...(entry.properties ?? {}) };
  const kinds = entry.geometry && entry.geometry !== 'all' ? [entry.geometry] : ['polygon', 'line', 'point'];
  const groups: FeatureGroup[] = [];
  for (const kind of kinds) {
    const g: FeatureGroup = { properties, polygons: [], lines: [], points: new Float64Array(0) };
    if (kind === 'polygon') {
      let ring: Float64Array = Float64Array.from([m, m, s - m, m, s - m, s - m, m, s - m]);
      if (ringArea(ring) < 0) ring = reverseRing(ring);
      g.polygons.push([ring]);
    } else if (kind === 'line') {
      g.lines.push(Float64Array.from([m, s * 0.7, s * 0.4, s * 0.3, s * 0.6, s * 0.7, s - m, s * 0.3]));
      g.cutEnds = Uint8Array.of(0);
    } else {
      g.points = Float64Array.of(s / 2, s / 2);
    }
    groups.push(g);
  }
  return groups;
}

function standInSources(groups: FeatureGroup[], assets?: Pick<SourceRegistry, 'sprite' | 'font' | 'warn'>): SourceRegistry {
  const source: FeatureSource = {
    name: 'legend',
    type: 'geojson',
    minzoom: 0,
    maxzoom: 24,
    features: async () => groups,
    attribution: async () => [],
  };
  return {
    featureSource: () => source,
    demSource: () => {
      throw new RenderError('a legend swatch cannot draw an entry that reads a dem source');
    },
    rasterSource: () => {
      throw new RenderError('a legend swatch cannot draw an entry that reads a raster source');
    },
    attribution: async () => [],
    // Assets (brush tips, sprites, patterns, fonts) come from the style's own registry.
    sprite: assets?.sprite?.bind(assets),
    font: assets?.font?.bind(assets),
    warn: assets?.warn?.bind(assets),
    // A text node draws a sample label where the entry's properties give it no text.
    standIn: true,
  };
}

/**
 * Render legend entry `index` as a size x size swatch: the plan's subgraph ending at the entry's
 * `from` node, every `features` node reading the stand-in features (the entry's `properties`
 * select its case through filters and expressions), at the entry's `min-zoom` (default 0).
 */
export async function renderLegendSwatch(
  plan: Plan,
  index: number,
  params?: ParamValues,
  options: { size?: number; backend?: Backend; sprite?: SourceRegistry['sprite']; assets?: Pick<SourceRegistry, 'sprite' | 'font' | 'warn'> } = {},
): Promise<Raster> {
  const entry = plan.legend?.entries?.[index];
  if (!entry) throw new RenderError(`the legend has no entry ${index}`);
  const size = options.size ?? 32;
  const order = topoOrder(plan.nodes, entry.from);
  const seen = new Set(order);
  const fusions = new Map([...plan.fusions].filter(([b, f]) => seen.has(b) && seen.has(f.paintId)));
  const sub: Plan = { ...plan, output: entry.from, order, fusions };
  const z = entry['min-zoom'] ?? 0;
  const window = { z, x0: 0, y0: 0, width: size, height: size, tileSize: 256 };
  return (
    await render(sub, window, params, {
      backend: options.backend,
      sources: standInSources(standInFeatures(entry, size), options.assets ?? { sprite: options.sprite }),
    })
  ).raster;
}

/** A legend entry drawn as a colour scale: the colours of a `color-ramp` node from `min` (left) to `max`. */
export interface LegendScale {
  min: number;
  max: number;
  /** width x height, premultiplied like every raster; each column is the ramp's colour at its value. */
  raster: Raster;
}

/**
 * Legend entry `index` as a colour scale when its `from` node is a `color-ramp` (a heatmap, a
 * hypsometric tint): the ramp's colours with the current params, from its first stop value to
 * its last (0 to 1 for a `ramp-expr`), through the op's own tables; undefined for other entries.
 */
export function renderLegendScale(plan: Plan, index: number, params?: ParamValues, options: { width?: number; height?: number } = {}): LegendScale | undefined {
  const entry = plan.legend?.entries?.[index];
  if (!entry) throw new RenderError(`the legend has no entry ${index}`);
  const node = plan.nodes.get(entry.from);
  if (node?.op.name !== 'color-ramp') return undefined;
  const values = params ?? ParamValues.from(plan.params);
  const read = (v: unknown): unknown => (typeof v === 'string' && v.startsWith('$') ? values.get(v.slice(1)) : typeof v === 'string' ? parseHexColor(v) : v);
  const ctx = { id: node.id, node: node.spec, resolve: read };
  const ramp = node.exprs.get('ramp-expr');
  const lut = ramp ? exprTable(ramp, entry['min-zoom'] ?? 0) : stopTables(resolveStops(ctx as never), (node.spec.space as ColorSpace | undefined) ?? 'rgb');
  const min = lut.values[0]!;
  const max = lut.values[lut.values.length - 1]!;
  // An opacity from an @node (a zoom curve) has no one value here: the scale shows the colours at 1.
  const o = read(node.spec.opacity ?? 1);
  const opacity = typeof o === 'number' ? Math.min(1, Math.max(0, o)) : o === false ? 0 : 1;
  const width = Math.max(2, Math.round(options.width ?? 160));
  const height = Math.max(1, Math.round(options.height ?? 12));
  const data = new Float32Array(width * height * 4);
  const sample = makeSampler(lut);
  const c = new Float64Array(4);
  for (let x = 0; x < width; x++) {
    // Columns span [min, max] end to end; the last column samples just below max (the sampler's
    // top end colour is for t >= max, the same colour).
    sample(min + ((max - min) * x) / (width - 1), c);
    const a = c[3]! * opacity;
    for (let y = 0; y < height; y++) data.set([c[0]! * a, c[1]! * a, c[2]! * a, a], (y * width + x) * 4);
  }
  return { min, max, raster: { kind: 'raster', width, height, data } };
}
