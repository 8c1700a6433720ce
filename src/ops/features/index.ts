import { expr, num, str } from '../../style/fields.js';
import type { OpContext, OpDef } from '../types.js';
import type { FeatureSelection, FeatureSource } from '../../sources/types.js';
import { RenderError } from '../../errors.js';
import type { CompiledExpr, ExprFeature } from '../../expr/index.js';
import type { FeatureGroup, Features } from '../../types.js';
import type { WholeFeature } from '../../geometry/whole.js';

/** Filtered group lists per sampled groups array, compiled filter and zoom (see the cpu kernel). */
const filtered = new WeakMap<readonly FeatureGroup[], Map<CompiledExpr | undefined, Map<string, FeatureGroup[]>>>();

/**
 * Filtered whole-feature lists per source list, compiled filter and zoom: the same list for every
 * canvas, so ops that share work per layer (text placement per world cell) find it again.
 */
const filteredWhole = new WeakMap<readonly WholeFeature[], Map<CompiledExpr | undefined, Map<string, WholeFeature[]>>>();

/** Samples a host-bound feature layer for the node's canvas. */
export const features: OpDef = {
  name: 'features',
  description: 'samples a feature layer of an mvt, pmtiles or geojson source',
  output: 'features',
  inputs: {},
  fields: {
    source: str('source name; optional when exactly one feature source exists'),
    layer: str('layer name; for geojson sources the layer is the source name'),
    'filter-expr': expr('filter', 'map-style filter; a feature passes only if it is truthy'),
    'min-zoom': num({ min: 0, max: 24, description: 'below this zoom the node emits an empty layer and loads nothing (fractional with a zoom-basis)' }),
    'max-zoom': num({ min: 0, max: 24, description: 'above this zoom the node emits an empty layer' }),
    'min-zoom-field': str('property holding a per-feature minimum zoom'),
  },
  cpu: async (ctx) => {
    const n = ctx.node;
    const z = ctx.zoom;
    // Outside the zoom range: an empty layer, and nothing is loaded.
    if ((typeof n['min-zoom'] === 'number' && z < n['min-zoom']) || (typeof n['max-zoom'] === 'number' && z > n['max-zoom'])) {
      return { kind: 'features', groups: [] };
    }
    const source = ctx.sources.featureSource(n.source as string | undefined);
    const layer = (n.layer as string | undefined) ?? (source.type === 'geojson' ? source.name : undefined);
    if (layer === undefined) {
      const known = source.layers?.();
      throw new RenderError(`node '${ctx.id}': source '${source.name}' needs a 'layer'${known ? ` (${known.join(', ')})` : ''}`);
    }
    const filter = ctx.expr('filter-expr');
    const mzField = n['min-zoom-field'] as string | undefined;
    const passesFeature = (f: ExprFeature) => {
      if (mzField) {
        const v = Number(f.properties[mzField]);
        if (Number.isFinite(v) && v > z) return false;
      }
      return !filter || filter.evaluate(z, f) === true;
    };
    const passes = (g: Pick<FeatureGroup, 'id' | 'properties' | 'polygons' | 'lines'>) => passesFeature(exprFeature(g));
    // What the filter reads: its expression (compiled once per node, never a param), the zoom and
    // the min-zoom field; nodes with equal keys keep the same features.
    const selection: FeatureSelection | undefined =
      filter || mzField ? { key: `${JSON.stringify(n['filter-expr'] ?? null)}|${z}|${mzField ?? ''}`, passes: passesFeature } : undefined;
    // The canvas's sampled groups, unless every reader takes whole features or pieces where the
    // source gives some (then only if it turns out to give none).
    const unread = ctx.groupsUnread && (!!source.tilePieces || !!source.wholeFeatures);
    const out: Features = { kind: 'features', groups: unread ? [] : await sampledGroups(source, layer, ctx, filter, mzField, passes, selection) };
    // A list of whole features or of one source tile's pieces, filtered: kept per list, filter and
    // zoom (the same list for every canvas, so ops that share work per layer find it again).
    const filterWhole = (list: readonly WholeFeature[]): readonly WholeFeature[] => {
      let memo = filteredWhole.get(list);
      if (!memo) filteredWhole.set(list, (memo = new Map()));
      const key = `${z}|${mzField ?? ''}`;
      let byExpr = memo.get(filter);
      if (!byExpr) {
        if (memo.size >= 8) memo.clear(); // a style rebuilt again and again: keep the memo small
        memo.set(filter, (byExpr = new Map()));
      }
      let got = byExpr.get(key);
      if (!got) {
        if (byExpr.size >= 32) byExpr.clear(); // fractional zooms: keep it small
        byExpr.set(key, (got = list.filter(passes)));
      }
      return got;
    };
    // Whole features (GeoJSON): filtered on first use, for the ops that measure whole features.
    const all = source.wholeFeatures ? await source.wholeFeatures(layer, ctx.signal) : undefined;
    if (all) {
      let kept: readonly WholeFeature[] | undefined;
      out.whole = { features: () => (kept ??= filter || mzField ? filterWhole(all()) : all()) };
    } else if (source.tilePieces) {
      // Tiled sources: each source tile's own pieces, loaded when an op asks (centroid).
      const tiled = source.tilePieces.bind(source);
      const canvas = ctx.canvas;
      let kept: readonly WholeFeature[] | undefined;
      // Filtered per source tile, each tile's list kept beside it (filterWhole): a canvas meets
      // several tiles that its neighbours meet too (the same pieces, in the same order, as
      // filtering the joined list).
      out.pieces = async (signal) => {
        kept ??= await tiled(layer, canvas, signal, filter || mzField ? filterWhole : undefined);
        return kept;
      };
    }
    if (unread && !out.whole && !out.pieces) out.groups = await sampledGroups(source, layer, ctx, filter, mzField, passes, selection);
    return out;
  },
};

/** The groups of `layer` sampled for the node's canvas, filtered (the filtered list memoised beside the source's array). */
async function sampledGroups(
  source: FeatureSource,
  layer: string,
  ctx: OpContext,
  filter: CompiledExpr | undefined,
  mzField: string | undefined,
  passes: (g: FeatureGroup) => boolean,
  selection: FeatureSelection | undefined,
): Promise<FeatureGroup[]> {
  const z = ctx.zoom;
  // Tiled sources select before sampling: only the features that pass are clipped.
  if (selection && source.selectedFeatures) return source.selectedFeatures(layer, ctx.canvas, selection, ctx.signal);
  const groups = await source.features(layer, ctx.canvas, ctx.signal);
  if (!filter && !mzField) return groups;
  // Sources without selectedFeatures (GeoJSON) hand out the same groups array for a canvas they
  // kept; its filtered list is kept beside it (the filter reads only the zoom and the feature,
  // never a param). Vector sources select above and hand out new group objects on each read
  // (their canvases are kept packed), so nothing is memoised on those.
  let memo = filtered.get(groups);
  if (!memo) filtered.set(groups, (memo = new Map()));
  const key = `${z}|${mzField ?? ''}`;
  let byExpr = memo.get(filter);
  if (!byExpr) {
    if (memo.size >= 8) memo.clear(); // a style rebuilt again and again: keep the memo small
    memo.set(filter, (byExpr = new Map()));
  }
  let kept = byExpr.get(key);
  if (!kept) byExpr.set(key, (kept = groups.filter(passes)));
  return kept;
}

/** The expression view of a group: geometry type from what it holds (polygon > line > point). */
export function exprFeature(g: Pick<FeatureGroup, 'id' | 'properties' | 'polygons' | 'lines'>): ExprFeature {
  return { type: g.polygons.length ? 3 : g.lines.length ? 2 : 1, id: g.id, properties: g.properties };
}
