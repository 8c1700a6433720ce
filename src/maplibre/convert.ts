// A MapLibre GL v8 style -> a tilegraph style document: a few nodes per layer, composited in layer
// order (source-over), and the list of what cannot be honoured. Runs once, when a style is loaded.
import { migrate } from '@maplibre/maplibre-gl-style-spec';
import type { NodeSpec } from '../ops/types.js';
import type { StyleDoc } from '../style/types.js';
import { Graph } from './graph.js';
import { LayerContext } from './layer.js';
import { LAYERS, UNSUPPORTED } from './layers.js';
import { convertSources } from './sources.js';
import { linkSymbolLayers } from './symbol.js';
import type { MlStyle, Note } from './types.js';

export interface ConvertOptions {
  /**
   * Moves every vector layer by [dx, dy] pixels, added to its `*-translate` (the render-test
   * harness: MapLibre's viewport origin may lie between pixels, ours lies on one).
   */
  shift?: [number, number];
  /**
   * The style is drawn as one viewport (a static map, MapLibre's render tests) rather than as
   * tiles: heatmap density grids anchor to the window's corner, as MapLibre's do to its viewport.
   */
  viewport?: boolean;
  /**
   * Fontstack name -> font file(s) for symbol layers' `text-font` (docs/maplibre.md, "Fonts"):
   * over the style's own `metadata["tilegraph:fonts"]`, over the default DejaVu mapping.
   */
  fonts?: Record<string, string | string[]>;
}

export interface Conversion {
  style: StyleDoc;
  /** What the graph does not honour: layer, property, why. Empty when everything is drawn. */
  notes: Note[];
}

/** MapLibre's tile size: its zoom z shows the world 512 * 2^z pixels wide. */
export const MAPLIBRE_TILE_SIZE = 512;

/** Style keys a raster renderer has no use for (camera, 3D, transitions): not reported. */
const SILENT_KEYS = new Set([
  'version',
  'name',
  'metadata',
  'sources',
  'layers',
  'center',
  'zoom',
  'bearing',
  'pitch',
  'transition',
  'glyphs',
  'sprite',
  'state',
]);

const FEATURE_LAYERS = new Set(['fill', 'line', 'circle', 'heatmap', 'symbol', 'fill-extrusion']);

/** A raster shown only in the layer's [minzoom, maxzoom): a blend whose opacity is a zoom step. */
function zoomRange(c: LayerContext, raster: string): string {
  const { minzoom, maxzoom } = c.layer;
  const lo = typeof minzoom === 'number' && minzoom > 0 ? minzoom : undefined;
  const hi = typeof maxzoom === 'number' && maxzoom < 24 ? maxzoom : undefined;
  if (lo === undefined && hi === undefined) return raster;
  const steps: unknown[] = ['step', ['zoom'], lo === undefined ? 1 : 0];
  if (lo !== undefined) steps.push(lo, 1);
  if (hi !== undefined) steps.push(hi, 0);
  const visible = c.g.add(`${c.id}-zoom-range`, { op: 'expr', expr: steps, type: 'number' });
  if (!c.g.nodes.transparent) c.g.nodes.transparent = { op: 'solid', color: '#00000000' };
  return c.g.add(`${c.id}-in-range`, { op: 'blend', base: '@transparent', over: '@' + raster, opacity: '@' + visible });
}

/** The style's own fontstack mapping, `metadata["tilegraph:fonts"]` (invalid entries noted). */
function styleFonts(style: MlStyle, g: Graph): Record<string, string | string[]> {
  const m = style.metadata?.['tilegraph:fonts'];
  if (m === undefined) return {};
  const out: Record<string, string | string[]> = {};
  if (!m || typeof m !== 'object' || Array.isArray(m)) {
    g.notes.push({ property: 'metadata.tilegraph:fonts', message: 'expected an object of fontstack name -> font file(s); ignored' });
    return out;
  }
  for (const [k, v] of Object.entries(m)) {
    if (typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string'))) out[k] = v as string | string[];
    else g.notes.push({ property: 'metadata.tilegraph:fonts', message: `'${k}': expected a font file or a list of them; ignored` });
  }
  return out;
}

interface GraphExtension {
  nodes: Record<string, NodeSpec>;
  output: string;
  params?: Record<string, unknown>;
  description?: string;
  attribution?: string;
}

/**
 * The style's own growth into a graph, `metadata["tilegraph:graph"]` (docs/maplibre.md, "Growing
 * the graph"): `nodes` added to the converted graph (reading '@basemap', the composite of every
 * layer, or any layer's node), `output` (default 'basemap'), `params`, `description`,
 * `attribution`. The nodes are checked as any style's when the document is loaded.
 */
function graphExtension(style: MlStyle, g: Graph): GraphExtension | undefined {
  const m = style.metadata?.['tilegraph:graph'];
  if (m === undefined) return undefined;
  const bad = (why: string) => {
    g.notes.push({ property: 'metadata.tilegraph:graph', message: `${why}; the graph is left out` });
    return undefined;
  };
  if (!m || typeof m !== 'object' || Array.isArray(m)) return bad('expected an object with nodes and output');
  const e = m as Record<string, unknown>;
  const nodes = e.nodes ?? {};
  if (!nodes || typeof nodes !== 'object' || Array.isArray(nodes)) return bad("'nodes' must be an object of nodes");
  const reserved = ['transparent', 'world-square', 'basemap'];
  for (const n of Object.keys(nodes)) if (reserved.includes(n)) return bad(`node name '${n}' is reserved`);
  const output = e.output ?? 'basemap';
  if (typeof output !== 'string' || (output !== 'basemap' && !(output in nodes))) return bad(`'output' must name one of its nodes or 'basemap'`);
  const text = (k: string) => (typeof e[k] === 'string' ? (e[k] as string) : undefined);
  const params = e.params && typeof e.params === 'object' && !Array.isArray(e.params) ? (e.params as Record<string, unknown>) : undefined;
  return { nodes: nodes as Record<string, NodeSpec>, output, params, description: text('description'), attribution: text('attribution') };
}

function transparentNode(g: Graph): string {
  if (!g.nodes.transparent) g.nodes.transparent = { op: 'solid', color: '#00000000' };
  return 'transparent';
}

export function convertMapLibre(input: MlStyle, options: ConvertOptions = {}): Conversion {
  // migrate: legacy `stops` functions and filters become expressions (the style-spec's own converter).
  const style = migrate(structuredClone(input) as never) as unknown as MlStyle;
  const g = new Graph();
  g.name('transparent'); // reserved for the transparent base
  g.name('world-square'); // and for the world's square (patterned backgrounds)
  const ext = graphExtension(style, g);
  // The extension's node names and 'basemap' are taken first: a layer of the same id gets a suffix.
  if (ext) for (const n of ['basemap', ...Object.keys(ext.nodes)]) g.name(n);
  const { sources, map } = convertSources(style, g);
  for (const key of Object.keys(style)) {
    if (SILENT_KEYS.has(key)) continue;
    if (key === 'light' || key === 'terrain' || key === 'sky' || key === 'projection')
      g.notes.push({ property: key, message: 'not drawn: a flat raster map has no 3D scene' });
    else g.notes.push({ property: key, message: 'ignored' });
  }
  const shift = options.shift ?? [0, 0];
  const fonts = { ...styleFonts(style, g), ...(options.fonts ?? {}) };
  const rasters: string[] = [];
  for (const layer of style.layers) {
    if (!layer || typeof layer !== 'object' || typeof layer.id !== 'string') continue;
    const c = new LayerContext(g, layer, style, map, shift, options.viewport);
    c.fonts = fonts;
    const visibility = layer.layout?.visibility;
    if (visibility === 'none') continue;
    c.touch('visibility');
    const convert = LAYERS[layer.type];
    if (!convert) {
      c.note(undefined, `${layer.type} layers are not supported: ${UNSUPPORTED[layer.type] ?? 'no converter for this type yet'}; the layer is left out`);
      continue;
    }
    const out = convert(c);
    c.reportUnread(() => 'not supported; ignored');
    // Layers that sample no features (background, raster, hillshade) take their zoom range here.
    for (const r of out === undefined ? [] : typeof out === 'string' ? [out] : out) rasters.push(FEATURE_LAYERS.has(layer.type) ? r : zoomRange(c, r));
  }
  linkSymbolLayers(g);
  // Sources the layers added (the world's square of a patterned background).
  for (const v of map.values()) if (!(v.name in sources)) sources[v.name] = v.decl;
  let output: string;
  if (rasters.length === 0) output = g.add('empty', { op: 'solid', color: '#00000000' });
  else {
    output = rasters[0]!;
    for (let i = 1; i < rasters.length; i++) {
      const node = { op: 'blend', base: '@' + output, over: '@' + rasters[i] };
      if (ext && i === rasters.length - 1) g.nodes[(output = 'basemap')] = node;
      else output = g.add('composite', node);
    }
  }
  if (ext) {
    // The composite of every layer is 'basemap'; the extension's nodes read it and any layer's node.
    if (output !== 'basemap') g.nodes.basemap = { op: 'blend', base: '@' + transparentNode(g), over: '@' + output };
    Object.assign(g.nodes, ext.nodes);
    output = ext.output;
  }
  const doc: StyleDoc = {
    ...(typeof style.name === 'string' ? { name: style.name } : {}),
    ...(ext?.description ? { description: ext.description } : {}),
    ...(ext?.attribution ? { attribution: ext.attribution } : {}),
    ...(ext?.params ? { params: ext.params as StyleDoc['params'] } : {}),
    output,
    'zoom-basis': MAPLIBRE_TILE_SIZE,
    sources,
    nodes: g.nodes,
  };
  return { style: doc, notes: g.notes };
}
