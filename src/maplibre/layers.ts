// One MapLibre layer -> a few nodes of ours, ending in the raster that is composited in layer order.
import type { NodeSpec } from '../ops/types.js';
import type { Scalar } from './graph.js';
import type { LayerContext } from './layer.js';
import { propSpec, valueAtZoom } from './props.js';
import { symbolLayer } from './symbol.js';

/**
 * Converts one layer: the raster node to composite, or several composited in turn (a fill and its
 * outline: each painted straight onto the map below, as MapLibre draws them), or undefined.
 */
export type LayerConverter = (c: LayerContext) => string | string[] | undefined;

/** The `features` node of a layer: its source and source-layer, filter and zoom range. */
export function featuresNode(c: LayerContext): string | undefined {
  const l = c.layer;
  const src = l.source !== undefined ? c.sources.get(l.source) : undefined;
  if (!src) {
    c.note(undefined, l.source === undefined ? 'the layer names no source; left out' : `source '${l.source}' is not available; the layer is left out`);
    return undefined;
  }
  const node: NodeSpec = { op: 'features', source: src.name };
  if (src.type === 'mvt' || src.type === 'pmtiles') {
    if (typeof l['source-layer'] !== 'string') {
      c.note('source-layer', 'a vector source needs a source-layer; the layer is left out');
      return undefined;
    }
    node.layer = l['source-layer'];
  }
  const filter = layerFilter(c);
  if (filter !== undefined) node['filter-expr'] = filter;
  if (typeof l.minzoom === 'number' && l.minzoom > 0) node['min-zoom'] = Math.min(24, l.minzoom);
  return c.g.shared(`${c.id}-features`, node);
}

/**
 * The layer's filter, with its maxzoom (hidden at zooms >= maxzoom, where our `max-zoom` hides
 * only above it) as a zoom condition.
 */
function layerFilter(c: LayerContext): unknown {
  const l = c.layer;
  const parts: unknown[] = [];
  if (l.filter !== undefined && l.filter !== true) parts.push(l.filter);
  if (typeof l.maxzoom === 'number' && l.maxzoom < 24) parts.push(['<', ['zoom'], l.maxzoom]);
  return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : ['all', ...parts];
}

/** Component i of an array-valued property (a translate) as a number scalar. */
function component(c: LayerContext, prop: string, i: number): Scalar {
  const pv = c.prop(prop);
  if (pv.kind === 'constant') {
    const v = Array.isArray(pv.value) ? Number(pv.value[i] ?? 0) : 0;
    return { v, bound: Math.abs(v) };
  }
  if (pv.kind === 'data') {
    c.note(prop, 'data-driven values are not supported for this property; ignored');
    return { v: 0, bound: 0 };
  }
  const spec = propSpec(c.layer.type, 'paint', prop)!;
  let bound = 0;
  for (let z = 0; z <= 24; z += 0.5) {
    const v = valueAtZoom(pv, spec, prop, z);
    if (Array.isArray(v)) bound = Math.max(bound, Math.abs(Number(v[i] ?? 0)));
  }
  return { v: '@' + c.g.add(`${c.id}-${prop}-${i ? 'y' : 'x'}`, { op: 'expr', expr: pick(pv.expr, i), type: 'number' }), bound };
}

/** A zoom curve of arrays as a zoom curve of their element i (outputs stay under the curve). */
function pick(e: unknown, i: number): unknown {
  if (Array.isArray(e) && (e[0] === 'interpolate' || e[0] === 'step')) {
    const start = e[0] === 'step' ? 2 : 3;
    return e.map((x, k) => (k >= start && (k - start) % 2 === (e[0] === 'step' ? 0 : 1) ? pick(x, i) : x));
  }
  if (Array.isArray(e) && e[0] === 'literal' && Array.isArray(e[1])) return e[1][i];
  if (Array.isArray(e) && e.every((x) => typeof x === 'number')) return e[i];
  return ['at', i, ['array', 'number', e]];
}

/** The layer's `*-translate` plus the conversion's sub-pixel shift: [dx, dy] scalars. */
function translation(c: LayerContext, prop: string | undefined): [Scalar, Scalar] {
  let dx: Scalar = { v: c.shift[0], bound: Math.abs(c.shift[0]) };
  let dy: Scalar = { v: c.shift[1], bound: Math.abs(c.shift[1]) };
  if (prop) {
    dx = c.g.sum(`${c.id}-dx`, dx, component(c, prop, 0));
    dy = c.g.sum(`${c.id}-dy`, dy, component(c, prop, 1));
    // Without rotation or pitch, 'viewport' and 'map' anchors place the same pixels.
    c.touch(`${prop}-anchor`);
  }
  return [dx, dy];
}

/** The layer's `*-translate` plus the conversion's sub-pixel shift, as a translate node over `f`. */
export function translated(c: LayerContext, f: string, prop: string | undefined): string {
  const [dx, dy] = translation(c, prop);
  if (dx.v === 0 && dy.v === 0) return f;
  const node: NodeSpec = { op: 'translate', features: '@' + f, dx: dx.v, dy: dy.v };
  if (typeof dx.v === 'string') node['dx-max'] = Math.ceil(dx.bound);
  if (typeof dy.v === 'string') node['dy-max'] = Math.ceil(dy.bound);
  return c.g.add(`${c.id}-translate`, node);
}

const background: LayerConverter = (c) => {
  const pattern = patternIcon(c, 'background-pattern');
  if (pattern) {
    // A pattern over the whole world: the world's square as one polygon, filled with the icon.
    if (!c.g.nodes['world-square']) {
      c.sources.set('\u0000world', { name: 'world-square', type: 'geojson', decl: WORLD_SOURCE, ml: { type: 'geojson' } });
      c.g.nodes['world-square'] = { op: 'features', source: 'world-square' };
    }
    const node: NodeSpec = { op: 'fill-pattern', features: '@world-square', pattern: '@' + pattern, wrap: 'plane', scale: patternScale(c) };
    const o = c.scalar('background-opacity');
    if (o.v !== 1) node.opacity = o.v;
    c.touch('background-color');
    return c.g.add(c.id, node);
  }
  const node: NodeSpec = { op: 'solid' };
  c.setColor(node, 'background-color', 'color');
  const solid = c.g.add(c.id, node);
  return withOpacity(c, solid, 'background-opacity');
};

/** `raster` at the layer's opacity (a property the op itself does not take): a blend over transparent. */
function withOpacity(c: LayerContext, raster: string, prop: string): string {
  const o = c.scalar(prop);
  if (o.v === 1) return raster;
  const clear = transparent(c);
  return c.g.add(`${c.id}-opacity`, { op: 'blend', base: '@' + clear, over: '@' + raster, opacity: o.v });
}

function transparent(c: LayerContext): string {
  if (!c.g.nodes.transparent) c.g.nodes.transparent = { op: 'solid', color: '#00000000' };
  return 'transparent';
}

/**
 * MapLibre fixes a pattern in tile units between whole zooms: at zoom z it is 2^(z - floor z)
 * times its pixel size (1 at whole zooms, so tiles of a 256 or 512 px pyramid are unchanged).
 */
function patternScale(c: LayerContext): string {
  const name = 'pattern-zoom-scale';
  if (!c.g.nodes[name]) {
    c.g.name(name);
    c.g.nodes[name] = { op: 'expr', expr: ['^', 2, ['-', ['zoom'], ['floor', ['zoom']]]], type: 'number' };
  }
  return '@' + name;
}

/** The sheet of a sprite id ('default', or an id of the style's sprite list). */
function spriteBase(c: LayerContext, id: string): string | undefined {
  const s = c.style.sprite;
  if (typeof s === 'string') return id === 'default' ? s : undefined;
  if (Array.isArray(s)) return s.find((x) => x && x.id === id)?.url;
  return undefined;
}

/** A pattern property's icon as an `icon` node (a constant name; zoom- or data-dependent ones are noted). */
function patternIcon(c: LayerContext, prop: string): string | undefined {
  const pv = c.prop(prop);
  let name: unknown;
  if (pv.kind === 'constant') name = pv.value;
  else {
    c.note(prop, 'zoom- or data-dependent patterns are not supported; the pattern at zoom 0 of the first feature is drawn');
    name = valueAtZoom(pv, propSpec(c.layer.type, 'paint', prop)!, prop, 0);
  }
  if (name && typeof name === 'object' && 'name' in name) name = (name as { name: unknown }).name; // a ResolvedImage
  if (typeof name !== 'string' || !name) return undefined;
  const colon = name.indexOf(':');
  const [id, icon] = colon > 0 && Array.isArray(c.style.sprite) ? [name.slice(0, colon), name.slice(colon + 1)] : ['default', name];
  const base = spriteBase(c, id);
  if (!base) {
    c.note(prop, `the style has no sprite${id === 'default' ? '' : ` '${id}'`} for pattern '${name}'; nothing is drawn`);
    return c.g.add(`${c.id}-no-pattern`, { op: 'circle', kind: 'sprite', color: '#00000000', 'radius-frac': 0, 'width-px': 1, 'height-px': 1 });
  }
  return c.g.add(`${c.id}-pattern`, { op: 'icon', sprite: base, name: icon, missing: 'transparent' });
}

/**
 * The world's square as one GeoJSON polygon, for patterned backgrounds. Vertices at 0 degrees (an
 * edge of 360 degrees would read as crossing the antimeridian) and sides at +-179.99999 degrees:
 * a polygon whose side lies exactly on +-180 is lost by the GeoJSON tiling at zoom 2 and above.
 */
const W = 179.99999;
const N = 85.0511287798066;
const WORLD_SOURCE = {
  type: 'geojson',
  data: {
    type: 'Polygon',
    coordinates: [
      [
        [-W, -N],
        [0, -N],
        [W, -N],
        [W, N],
        [0, N],
        [-W, N],
        [-W, -N],
      ],
    ],
  },
} as const;

const fill: LayerConverter = (c) => {
  const f0 = featuresNode(c);
  if (!f0) return undefined;
  const f = translated(c, f0, 'fill-translate');
  const pattern = c.isSet('fill-pattern') ? patternIcon(c, 'fill-pattern') : undefined;
  c.touch('fill-pattern');
  if (pattern) {
    const node: NodeSpec = { op: 'fill-pattern', features: '@' + f, pattern: '@' + pattern, wrap: 'plane', scale: patternScale(c) };
    const o = c.scalar('fill-opacity');
    if (o.v !== 1) node.opacity = o.v;
    const aa = c.prop('fill-antialias');
    if (aa.kind === 'constant' && aa.value === false) node.antialias = false;
    c.touch('fill-color', 'fill-outline-color');
    return c.g.add(c.id, node);
  }
  const node: NodeSpec = { op: 'fill-solid', features: '@' + f };
  c.setColor(node, 'fill-color', 'fill', 'fill-expr');
  c.setNumber(node, 'fill-opacity', { field: 'fill-alpha', exprField: 'fill-alpha-expr' });
  // MapLibre fills its triangles aliased and, with fill-antialias, draws a 1 px anti-aliased
  // outline over the edges (in fill-outline-color, else the fill colour) at the fill's opacity.
  const aa = c.prop('fill-antialias');
  node.antialias = false;
  const fillName = c.g.add(c.id, node);
  if (aa.kind === 'constant' && aa.value === false) return fillName;
  const outline: NodeSpec = { op: 'stroke-solid', features: '@' + f, width: 1 };
  if (c.isSet('fill-outline-color')) c.setColor(outline, 'fill-outline-color', 'color', 'color-expr');
  else {
    if (node.fill !== undefined) outline.color = node.fill;
    if (node['fill-expr'] !== undefined) outline['color-expr'] = node['fill-expr'];
    c.touch('fill-outline-color');
  }
  if (node['fill-alpha'] !== undefined) outline.opacity = node['fill-alpha'];
  if (node['fill-alpha-expr'] !== undefined) outline['opacity-expr'] = node['fill-alpha-expr'];
  // Both composited in turn over the layers below, as MapLibre draws them onto its framebuffer
  // (source-over is associative: the same as the outline over the fill, then that over the map),
  // so each paints straight onto the map's raster (a fused composite) with no canvas of its own.
  return [fillName, c.g.add(`${c.id}-outline`, outline)];
};

const line: LayerConverter = (c) => {
  const f0 = featuresNode(c);
  if (!f0) return undefined;
  if (c.isSet('line-pattern')) c.note('line-pattern', 'patterns on lines are not supported; the line colour is drawn');
  if (c.isSet('line-gradient')) c.note('line-gradient', 'line gradients are not supported; the line colour is drawn');
  c.touch('line-pattern', 'line-gradient', 'line-sort-key');
  if (c.isSet('line-sort-key')) c.note('line-sort-key', 'features are drawn in source order');
  // MapLibre's own line geometry and shader (stroke-solid's maplibre profile): ends cut without
  // anti-aliasing, translucent joins drawn twice, the casing gap, per-feature offset and join.
  const stroke: NodeSpec = { op: 'stroke-solid', profile: 'maplibre' };
  c.setNumber(stroke, 'line-width', { field: 'width', exprField: 'width-expr', maxField: 'width-max' });
  c.setColor(stroke, 'line-color', 'color', 'color-expr');
  c.setNumber(stroke, 'line-opacity', { field: 'opacity', exprField: 'opacity-expr' });
  c.setNumber(stroke, 'line-gap-width', { field: 'gap-width', exprField: 'gap-width-expr', maxField: 'gap-width-max' });
  c.setNumber(stroke, 'line-offset', { field: 'offset', exprField: 'offset-expr', maxField: 'offset-max' });
  c.setNumber(stroke, 'line-blur', { field: 'blur', exprField: 'blur-expr', maxField: 'blur-max' });
  for (const [prop, field] of [
    ['line-cap', 'cap'],
    ['line-join', 'join'],
  ] as const) {
    const pv = c.prop(prop);
    if (pv.kind === 'constant') {
      if (typeof pv.value === 'string') stroke[field] = pv.value;
    } else stroke[`${field}-expr`] = pv.expr;
  }
  for (const [prop, field] of [
    ['line-miter-limit', 'miter-limit'],
    ['line-round-limit', 'round-limit'],
  ] as const) {
    const pv = c.prop(prop);
    if (pv.kind === 'constant' && typeof pv.value === 'number') stroke[field] = Math.max(field === 'miter-limit' ? 1 : 0, pv.value);
    else c.note(prop, `zoom-dependent values are not supported; ${field === 'miter-limit' ? 2 : 1.05} is used`);
  }

  // Dashes: lengths in line widths at the whole zoom below, from MapLibre's dash texture.
  const f = f0;
  const dashes = c.prop('line-dasharray');
  if (dashes.kind !== 'constant' || (Array.isArray(dashes.value) && dashes.value.length)) {
    const arr = dashes.kind === 'constant' ? dashes.value : valueAtZoom(dashes, propSpec('line', 'paint', 'line-dasharray')!, 'line-dasharray', 0);
    if (dashes.kind !== 'constant') c.note('line-dasharray', 'zoom- or data-dependent dash arrays are not supported; the array at zoom 0 is used');
    if (Array.isArray(arr) && arr.length >= 1) stroke['dash-array'] = arr.slice(0, 64).map((v) => Math.max(0, Number(v) || 0));
  }
  // The translation in the stroke itself: its dashes then run along the whole lines (the source's
  // own geometry, which a translate node would not carry).
  const [dx, dy] = translation(c, 'line-translate');
  if (dx.v !== 0) stroke.dx = dx.v;
  if (dy.v !== 0) stroke.dy = dy.v;
  if (typeof dx.v === 'string') stroke['dx-max'] = Math.ceil(dx.bound);
  if (typeof dy.v === 'string') stroke['dy-max'] = Math.ceil(dy.bound);
  stroke.features = '@' + f;
  return c.g.add(c.id, stroke);
};

const circle: LayerConverter = (c) => {
  const f0 = featuresNode(c);
  if (!f0) return undefined;
  const f = translated(c, f0, 'circle-translate');
  c.touch('circle-pitch-scale', 'circle-pitch-alignment', 'circle-sort-key');
  if (c.isSet('circle-sort-key')) c.note('circle-sort-key', 'features are drawn in source order');
  const node: NodeSpec = { op: 'circles', features: '@' + f, profile: 'maplibre', vertices: true };
  c.setNumber(node, 'circle-radius', { field: 'radius', exprField: 'radius-expr', maxField: 'radius-max' });
  c.setColor(node, 'circle-color', 'color', 'color-expr');
  // MapLibre's circle-opacity fades the fill only (its shader: mix(color * opacity, stroke_color * stroke_opacity, color_t)).
  c.setNumber(node, 'circle-opacity', { field: 'fill-opacity', exprField: 'fill-opacity-expr' });
  c.setNumber(node, 'circle-blur', { field: 'blur', exprField: 'blur-expr' });
  c.setNumber(node, 'circle-stroke-width', { field: 'stroke-width', exprField: 'stroke-width-expr', maxField: 'stroke-width-max' });
  c.setColor(node, 'circle-stroke-color', 'stroke-color', 'stroke-color-expr');
  c.setNumber(node, 'circle-stroke-opacity', { field: 'stroke-opacity', exprField: 'stroke-opacity-expr' });
  return c.g.add(c.id, node);
};

const heatmap: LayerConverter = (c) => {
  const f0 = featuresNode(c);
  if (!f0) return undefined;
  const f = translated(c, f0, undefined);
  // MapLibre's density: a quarter-resolution texture of its viewport, kernels cut where they fall
  // below 1/4080 (its ZERO).
  const density: NodeSpec = { op: 'density', features: '@' + f, resolution: 4, cutoff: 1 / 255 / 16 };
  if (c.viewport) density['grid-anchor'] = 'window';
  c.setNumber(density, 'heatmap-radius', { field: 'radius', exprField: 'radius-expr', maxField: 'radius-max' });
  if (density['radius-expr'] === undefined && typeof density.radius === 'string') density['radius-max'] ??= 30;
  c.setNumber(density, 'heatmap-weight', { field: 'weight', exprField: 'weight-expr' });
  // The op reads weight-expr only (weight 1 without it).
  if (typeof density.weight === 'number' && density.weight !== 1 && density['weight-expr'] === undefined) density['weight-expr'] = density.weight;
  delete density.weight;
  const intensity = c.scalar('heatmap-intensity');
  density.intensity = intensity.v;
  const d = c.g.add(`${c.id}-density`, density);
  const ramp: NodeSpec = { op: 'color-ramp', field: '@' + d, 'ramp-sampling': 'texture' };
  // A colour ramp over ["heatmap-density"]: the expression itself (the style's, else the spec's default).
  c.touch('heatmap-color');
  ramp['ramp-expr'] = c.layer.paint?.['heatmap-color'] ?? propSpec('heatmap', 'paint', 'heatmap-color')!.default;
  const o = c.scalar('heatmap-opacity');
  ramp.opacity = o.v;
  return c.g.add(c.id, ramp);
};

const raster: LayerConverter = (c) => {
  const src = c.layer.source !== undefined ? c.sources.get(c.layer.source) : undefined;
  if (!src || src.type !== 'raster') {
    c.note(
      undefined,
      `a raster layer needs a raster source${c.layer.source ? ` ('${c.layer.source}' is ${src ? `a ${src.ml.type} source` : 'not available'})` : ''}; the layer is left out`,
    );
    return undefined;
  }
  const node: NodeSpec = { op: 'raster', source: src.name };
  const resampling = c.prop(c.isSet('resampling') ? 'resampling' : 'raster-resampling');
  c.touch('resampling', 'raster-resampling', 'raster-fade-duration');
  if (resampling.kind === 'constant' && resampling.value === 'nearest') node.resampling = 'nearest';
  for (const [prop, field] of [
    ['raster-opacity', 'opacity'],
    ['raster-brightness-min', 'brightness-min'],
    ['raster-brightness-max', 'brightness-max'],
    ['raster-saturation', 'saturation'],
    ['raster-contrast', 'contrast'],
    ['raster-hue-rotate', 'hue-rotate'],
  ] as const) {
    const s = c.scalar(prop);
    if (!(typeof s.v === 'number' && s.v === (raster_defaults[field] ?? 0))) node[field] = s.v;
  }
  if (c.isSet('raster-layer-blend')) c.note('raster-layer-blend', 'not supported; layers are composited source-over');
  c.touch('raster-layer-blend');
  return c.g.add(c.id, node);
};
const raster_defaults: Record<string, number> = { opacity: 1, 'brightness-max': 1 };

const hillshade: LayerConverter = (c) => {
  const src = c.layer.source !== undefined ? c.sources.get(c.layer.source) : undefined;
  if (!src || src.type !== 'dem') {
    c.note(
      undefined,
      `a hillshade layer needs a raster-dem source${c.layer.source ? ` ('${c.layer.source}' is ${src ? `a ${src.ml.type} source` : 'not available'})` : ''}; the layer is left out`,
    );
    return undefined;
  }
  const dem = c.g.add(`${c.id}-dem`, { op: 'dem', source: src.name });
  const node: NodeSpec = { op: 'hillshade', field: '@' + dem, method: 'maplibre', 'dem-tile-size': src.decl.tileSize === 256 ? 256 : 512 };
  node.azimuth = c.scalar('hillshade-illumination-direction').v;
  node.exaggeration = c.scalar('hillshade-exaggeration').v;
  node['shadow-color'] = c.colorScalar('hillshade-shadow-color');
  node['highlight-color'] = c.colorScalar('hillshade-highlight-color');
  node['accent-color'] = c.colorScalar('hillshade-accent-color');
  const method = c.prop('hillshade-method');
  if (!(method.kind === 'constant' && (method.value === 'standard' || method.value === undefined)))
    c.note('hillshade-method', "only the 'standard' method is drawn");
  if (c.isSet('hillshade-illumination-altitude')) c.note('hillshade-illumination-altitude', "the 'standard' method has no altitude; ignored");
  // Without rotation, the viewport and map anchors light the same way.
  c.touch('hillshade-illumination-anchor', 'hillshade-illumination-altitude', 'resampling');
  return c.g.add(c.id, node);
};

/**
 * fill-extrusion seen from straight above (no pitch): MapLibre draws the roofs, lit from its
 * default light almost exactly in their colour (directional factor 0.99+ for a roof), into an
 * offscreen layer composited once at fill-extrusion-opacity. Ours: the polygons filled opaque
 * (aliased, as MapLibre's triangles), then the layer at that opacity. Heights, walls and the
 * light are reported.
 */
const fillExtrusion: LayerConverter = (c) => {
  const f0 = featuresNode(c);
  if (!f0) return undefined;
  const f = translated(c, f0, 'fill-extrusion-translate');
  c.note(undefined, 'fill-extrusion is drawn as its roofs seen from straight above (no height, walls or lighting)');
  if (c.isSet('fill-extrusion-pattern')) c.note('fill-extrusion-pattern', 'not supported; the colour is drawn');
  c.touch(
    'fill-extrusion-height',
    'fill-extrusion-base',
    'fill-extrusion-vertical-gradient',
    'fill-extrusion-pattern',
    'fill-extrusion-color',
    'fill-extrusion-opacity',
  );
  const node: NodeSpec = { op: 'fill-solid', features: '@' + f, antialias: false };
  c.setColor(node, 'fill-extrusion-color', 'fill', 'fill-expr');
  const fill = c.g.add(c.id, node);
  return withOpacity(c, fill, 'fill-extrusion-opacity');
};

const symbol: LayerConverter = (c) => {
  const f = featuresNode(c);
  if (!f) return undefined;
  return symbolLayer(c, f, { fonts: c.fonts });
};

export const LAYERS: Record<string, LayerConverter> = {
  background,
  fill,
  line,
  circle,
  heatmap,
  raster,
  hillshade,
  symbol,
  'fill-extrusion': fillExtrusion,
};

/** Layer types we cannot draw, with the reason given in the report. */
export const UNSUPPORTED: Record<string, string> = {
  sky: 'the sky is not drawn (a flat map has no horizon)',
  'color-relief': 'colour relief layers are not supported yet',
};
