// MapLibre `symbol` layers: labels through the `text` op (HarfBuzz-shaped outline fonts chosen by a
// fontstack -> font file mapping) and icons from the style's sprite through `icon` + `stamp`.
import type { NodeSpec } from '../ops/types.js';
import { DEFAULT_FONT } from '../ops/text/fonts.js';
import type { Graph } from './graph.js';
import type { LayerContext } from './layer.js';
import { propSpec, valueAtZoom, type PropValue } from './props.js';

/** The fonts a text node may list (the text op's bound). */
const MAX_FONTS = 8;
/** Text nodes of earlier symbol layers a label layer keeps clear of (the text op's bound). */
const MAX_AVOID = 8;
/** A label's farthest reach from its anchor, pixels (the text op's max-extent: it sets the padding). */
const MAX_EXTENT = 96;
/** Zoom at which em-based lengths are taken when the text size depends on the zoom. */
const EM_ZOOM = 14;

const DEJAVU = 'npm:dejavu-fonts-ttf/ttf/';
/** Fallbacks after the mapped font: the text op's default scripts beyond DejaVu's. */
const SCRIPT_FALLBACKS = DEFAULT_FONT.slice(1);

/**
 * The default font file of a fontstack name: DejaVu by the words in the name (Serif, Mono,
 * Condensed; Bold / Semibold / Black / Heavy, Italic / Oblique), e.g. "Noto Sans Bold" ->
 * DejaVuSans-Bold.ttf, "Open Sans Italic" -> DejaVuSans-Oblique.ttf.
 */
export function defaultFontFile(fontstack: string): string {
  const n = fontstack.toLowerCase();
  const bold = /\b(bold|semibold|semi bold|extrabold|black|heavy)\b/.test(n);
  const italic = /\b(italic|oblique)\b/.test(n);
  const family = /\bmono\b/.test(n) ? 'Mono' : /\bserif\b/.test(n) && !/\bsans\b/.test(n) ? 'Serif' : '';
  const condensed = family !== 'Mono' && /\bcondensed\b/.test(n) ? 'Condensed' : '';
  const slant = italic ? (family === 'Serif' ? 'Italic' : 'Oblique') : '';
  const style = `${bold ? 'Bold' : ''}${slant}`;
  return `${DEJAVU}DejaVu${family === 'Serif' ? 'Serif' : `Sans${family}`}${condensed}${style ? `-${style}` : ''}.ttf`;
}

/** A fontstack mapping: fontstack name -> a font reference or a list of them (first match wins). */
export type FontMap = Record<string, string | string[]>;

/**
 * The font list of a `text-font` value: each fontstack through `fonts` (the style's
 * `metadata["tilegraph:fonts"]`, then ConvertOptions.fonts), else the default file of the first
 * fontstack, then the default script fallbacks. At most MAX_FONTS, without repeats.
 */
export function fontFiles(stack: readonly string[], fonts: FontMap): string[] {
  const out: string[] = [];
  const add = (f: string) => {
    if (!out.includes(f) && out.length < MAX_FONTS) out.push(f);
  };
  for (const name of stack) {
    const m = fonts[name];
    if (m !== undefined) for (const f of Array.isArray(m) ? m : [m]) add(String(f));
  }
  if (out.length === 0) add(defaultFontFile(stack[0] ?? ''));
  for (const f of SCRIPT_FALLBACKS) add(f);
  return out;
}

/** The text nodes of a conversion's symbol layers, per layer, bottom to top. */
const placedText = new WeakMap<Graph, string[][]>();

/**
 * MapLibre places symbol layers from the top of the stack down: a label keeps clear of the labels
 * of the layers above it. Each avoided text node is placed over a wider region (its reach plus
 * its max-extent beyond the avoiding node's), so chains of avoidance add up to margins past the
 * limit: the upper half of the symbol layers (at most MAX_AVOID text nodes) are placed first, and
 * every text node below keeps clear of all of them. Labels of two layers of the same half may
 * overlap (docs/maplibre.md).
 */
export function linkSymbolLayers(g: Graph): void {
  const layers = placedText.get(g) ?? [];
  const top: string[] = [];
  let i = layers.length;
  while (i > 0 && top.length + layers[i - 1]!.length <= MAX_AVOID && layers.length - i < Math.ceil(layers.length / 2)) top.push(...layers[--i]!);
  for (const names of layers.slice(0, i)) for (const n of names) g.nodes[n]!.avoid = top.map((t) => '@' + t);
}

export interface SymbolOptions {
  fonts: FontMap;
}

/** A symbol layer: icons (stamped at points) under labels; undefined when it draws nothing. */
export function symbolLayer(c: LayerContext, f: string, opts: SymbolOptions): string | undefined {
  c.touch(
    'symbol-z-order',
    'symbol-avoid-edges',
    'text-pitch-alignment',
    'text-rotation-alignment',
    'icon-pitch-alignment',
    'icon-rotation-alignment',
    'text-optional',
    'icon-optional',
    'text-writing-mode',
  );
  const placementPv = c.prop('symbol-placement');
  const placement = placementPv.kind === 'constant' ? String(placementPv.value ?? 'point') : 'point';
  if (placementPv.kind !== 'constant') c.note('symbol-placement', 'zoom-dependent placement is not supported; point is used');
  if (placement === 'line-center') c.note('symbol-placement', 'line-center: labels are repeated along the line at symbol-spacing');
  const rasters: string[] = [];
  const icons = iconNode(c, f, placement);
  if (icons) rasters.push(icons);
  const labels = textNodes(c, f, placement === 'point' ? 'point' : 'line', opts);
  rasters.push(...labels);
  if (rasters.length === 0) return undefined;
  let out = rasters[0]!;
  for (let i = 1; i < rasters.length; i++) out = c.g.add(`${c.id}-symbols`, { op: 'blend', base: '@' + out, over: '@' + rasters[i] });
  return out;
}

/** Constant value of a property (its value at zoom `z` when it varies, noted), or the default. */
function constant(c: LayerContext, prop: string, z = EM_ZOOM): unknown {
  const pv = c.prop(prop);
  if (pv.kind === 'constant') return pv.value;
  c.note(prop, `${pv.kind === 'data' ? 'data-driven' : 'zoom-dependent'} values are not supported; the value at zoom ${z} is used`);
  return valueAtZoom(pv, propSpec('symbol', groupOf(prop), prop)!, prop, z);
}

function groupOf(prop: string): 'layout' | 'paint' {
  return propSpec('symbol', 'layout', prop) ? 'layout' : 'paint';
}

/** The labels of a layer: a text node per placement MapLibre applies (points and polygons' poles, or lines). */
function textNodes(c: LayerContext, f: string, placement: 'point' | 'line', opts: SymbolOptions): string[] {
  const field = c.prop('text-field');
  if (field.kind === 'constant' && (field.value === undefined || field.value === '')) {
    c.touch(...TEXT_PROPS);
    return [];
  }
  let text: unknown = field.kind === 'constant' ? formattedText(field.value) : field.expr;
  const transform = constant(c, 'text-transform');
  if (transform === 'uppercase') text = ['upcase', ['to-string', text]];
  else if (transform === 'lowercase') text = ['downcase', ['to-string', text]];

  const node: NodeSpec = { op: 'text', features: '@' + f, 'text-expr': text };
  const stack = constant(c, 'text-font', 0);
  node.font = fontFiles(Array.isArray(stack) ? stack.map(String) : ['Open Sans Regular'], opts.fonts);

  const size = c.setNumber(node, 'text-size', { field: 'size', exprField: 'size-expr', maxField: 'size-max' });
  if (size.kind !== 'constant' && typeof node['size-max'] === 'number') node['size-max'] = Math.min(256, Math.max(1, node['size-max']));
  // Em-based lengths need one size: the constant, else the size at EM_ZOOM (noted where used).
  const em = emSize(size);
  const emNote = (prop: string) => {
    if (size.kind !== 'constant' && c.isSet(prop)) c.note(prop, `in ems of a varying text-size: taken at the size of zoom ${EM_ZOOM} (${em} px)`);
  };

  c.setColor(node, 'text-color', 'color', 'color-expr');
  if (c.isSet('text-halo-color')) node['halo-color'] = c.colorScalar('text-halo-color');
  else {
    // MapLibre's default halo is transparent black: no halo unless a colour is set.
    node['halo-color'] = '#00000000';
    c.touch('text-halo-color');
  }
  const halo = c.scalar('text-halo-width');
  if (halo.v !== 0) node['halo-width'] = halo.v;
  const haloBlur = c.scalar('text-halo-blur');
  if (haloBlur.v !== 0) node['halo-blur'] = haloBlur.v;

  node.placement = placement;
  if (placement === 'point') {
    const variable = c.prop('text-variable-anchor');
    let anchor = constant(c, 'text-anchor');
    if (variable.kind === 'constant' && Array.isArray(variable.value) && variable.value.length) {
      c.note('text-variable-anchor', 'the first anchor is used (no alternatives are tried)');
      anchor = variable.value[0];
    } else if (variable.kind !== 'constant') c.note('text-variable-anchor', 'not supported; text-anchor is used');
    if (typeof anchor === 'string' && anchor !== 'center') node.anchor = anchor;
    const offset = constant(c, 'text-offset');
    emNote('text-offset');
    let [ox, oy] = Array.isArray(offset) ? [Number(offset[0]) || 0, Number(offset[1]) || 0] : [0, 0];
    const radial = constant(c, 'text-radial-offset');
    if (typeof radial === 'number' && radial !== 0) {
      emNote('text-radial-offset');
      [ox, oy] = radialOffset(typeof anchor === 'string' ? anchor : 'center', radial);
    }
    if (ox !== 0 || oy !== 0) node.offset = [ox * em, oy * em];
    const maxWidth = constant(c, 'text-max-width');
    emNote('text-max-width');
    if (typeof maxWidth === 'number') node['max-width'] = maxWidth * em;
    const justify = constant(c, 'text-justify');
    if (typeof justify === 'string' && justify !== 'center') node.justify = justify;
  } else {
    c.touch('text-anchor', 'text-offset', 'text-radial-offset', 'text-variable-anchor', 'text-max-width', 'text-justify', 'text-variable-anchor-offset');
    const spacing = constant(c, 'symbol-spacing');
    if (typeof spacing === 'number' && spacing !== 250) node.spacing = Math.max(1, spacing);
    const angle = constant(c, 'text-max-angle');
    if (typeof angle === 'number' && angle !== 45) node['max-angle'] = Math.min(180, Math.max(0, angle));
    const upright = constant(c, 'text-keep-upright');
    if (upright === false) node['keep-upright'] = false;
  }
  const spacing = constant(c, 'text-letter-spacing');
  emNote('text-letter-spacing');
  if (typeof spacing === 'number' && spacing !== 0) node['letter-spacing'] = Math.max(-64, Math.min(64, spacing * em));
  const lineHeight = constant(c, 'text-line-height');
  if (typeof lineHeight === 'number' && lineHeight !== 1.2) node['line-height'] = Math.max(0.5, Math.min(4, lineHeight));
  const padding = constant(c, 'text-padding');
  if (typeof padding === 'number' && padding !== 2) node.padding = Math.max(0, Math.min(64, padding));
  const sortKey = c.prop('symbol-sort-key');
  // MapLibre places lower sort keys first; ours places higher priorities first.
  if (sortKey.kind !== 'constant') node['priority-expr'] = ['-', 0, ['to-number', sortKey.expr, 0]];
  node['max-extent'] = MAX_EXTENT;
  // One placement round (the op's default is 2): the margin of avoided nodes grows with rounds.
  node.rounds = 1;

  for (const p of ['text-rotate', 'text-translate', 'text-allow-overlap', 'text-ignore-placement', 'text-variable-anchor-offset']) {
    if (c.isSet(p)) c.note(p, NOT_HONOURED[p] ?? 'not supported; ignored');
  }
  c.touch(
    'text-rotate',
    'text-translate',
    'text-translate-anchor',
    'text-allow-overlap',
    'text-ignore-placement',
    'text-variable-anchor-offset',
    'text-overlap',
  );
  if (c.isSet('text-overlap')) c.note('text-overlap', 'labels never overlap (as "never")');

  const names = [c.g.add(`${c.id}-text`, node)];
  if (placement === 'point') {
    // MapLibre labels a polygon with point placement at its pole of inaccessibility.
    const poly = c.g.add(`${c.id}-polygons`, {
      ...(c.g.nodes[f] as NodeSpec),
      'filter-expr': withFilter(c.g.nodes[f]?.['filter-expr'], ['in', ['geometry-type'], ['literal', ['Polygon', 'MultiPolygon']]]),
    });
    const pn: NodeSpec = { ...node, features: '@' + poly, placement: 'polygon' };
    delete pn.offset;
    names.push(c.g.add(`${c.id}-text-polygons`, pn));
  }
  const placed = placedText.get(c.g) ?? [];
  placedText.set(c.g, placed);
  placed.push(names);

  // text-opacity: the op has none; a blend at that opacity over transparent.
  const opacity = c.scalar('text-opacity');
  return names.map((n) => {
    if (opacity.v === 1) return n;
    if (!c.g.nodes.transparent) c.g.nodes.transparent = { op: 'solid', color: '#00000000' };
    return c.g.add(`${n}-opacity`, { op: 'blend', base: '@transparent', over: '@' + n, opacity: opacity.v });
  });
}

const NOT_HONOURED: Record<string, string> = {
  'text-rotate': 'rotated labels are not supported; drawn unrotated',
  'text-translate': 'not supported; labels are drawn at their anchors',
  'text-allow-overlap': 'labels never overlap one another',
  'text-ignore-placement': 'labels of later layers keep clear of these ones',
};

/** Every text property (read when the layer has no text). */
const TEXT_PROPS = [
  'text-font',
  'text-size',
  'text-color',
  'text-halo-color',
  'text-halo-width',
  'text-halo-blur',
  'text-opacity',
  'text-anchor',
  'text-offset',
  'text-radial-offset',
  'text-variable-anchor',
  'text-variable-anchor-offset',
  'text-max-width',
  'text-justify',
  'text-letter-spacing',
  'text-line-height',
  'text-padding',
  'text-transform',
  'text-max-angle',
  'text-keep-upright',
  'text-rotate',
  'text-translate',
  'text-translate-anchor',
  'text-allow-overlap',
  'text-ignore-placement',
  'text-overlap',
  'symbol-spacing',
  'symbol-sort-key',
];

/** A constant `text-field` (a string, or a Formatted the style-spec evaluated) as plain text. */
function formattedText(v: unknown): unknown {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && Array.isArray((v as { sections?: unknown }).sections))
    return (v as { sections: { text?: string }[] }).sections.map((s) => s.text ?? '').join('');
  return String(v ?? '');
}

/** The pixel size em-based lengths are measured in. */
function emSize(size: PropValue): number {
  if (size.kind === 'constant') return typeof size.value === 'number' ? size.value : 16;
  const v = valueAtZoom(size, propSpec('symbol', 'layout', 'text-size')!, 'text-size', EM_ZOOM);
  return typeof v === 'number' && Number.isFinite(v) ? v : 16;
}

/** MapLibre's radial offset (ems) as an [x, y] offset for an anchor (its evaluateRadialOffset). */
function radialOffset(anchor: string, r: number): [number, number] {
  const h = Math.SQRT1_2 * r;
  switch (anchor) {
    case 'top-right':
    case 'top-left':
      return [anchor === 'top-left' ? h : -h, h];
    case 'bottom-right':
    case 'bottom-left':
      return [anchor === 'bottom-left' ? h : -h, -h];
    case 'bottom':
      return [0, -r];
    case 'top':
      return [0, r];
    case 'right':
      return [-r, 0];
    case 'left':
      return [r, 0];
    default:
      return [0, 0];
  }
}

function withFilter(a: unknown, b: unknown): unknown {
  return a === undefined ? b : ['all', a, b];
}

/**
 * Icons: a constant `icon-image` from the style's sprite, stamped at each point feature (scaled by
 * icon-size, rotated by icon-rotate, faded by icon-opacity). Returns the raster, or undefined.
 */
function iconNode(c: LayerContext, f: string, placement: string): string | undefined {
  const image = c.prop('icon-image');
  const ICON_PROPS = [
    'icon-size',
    'icon-rotate',
    'icon-opacity',
    'icon-color',
    'icon-halo-color',
    'icon-halo-width',
    'icon-halo-blur',
    'icon-anchor',
    'icon-offset',
    'icon-padding',
    'icon-allow-overlap',
    'icon-ignore-placement',
    'icon-overlap',
    'icon-text-fit',
    'icon-text-fit-padding',
    'icon-keep-upright',
    'icon-translate',
    'icon-translate-anchor',
  ];
  if (image.kind === 'constant' && !image.value) {
    c.touch(...ICON_PROPS);
    return undefined;
  }
  // A zoom- or data-dependent icon-image: the features grouped by the name it gives them, one
  // stamp per name its expression can give (its string outputs); drawn name by name.
  let names: string[];
  if (image.kind !== 'constant') {
    const found = iconNames(image.expr);
    if (!found || !found.length) {
      c.touch(...ICON_PROPS);
      c.note('icon-image', 'icon names computed from data (not written out in the expression) are not supported; no icons are drawn');
      return undefined;
    }
    if (found.length > MAX_ICON_NAMES) c.note('icon-image', `only the first ${MAX_ICON_NAMES} of ${found.length} icon names are drawn`);
    names = found.slice(0, MAX_ICON_NAMES);
  } else {
    let name: unknown = image.value;
    if (name && typeof name === 'object' && 'name' in name) name = (name as { name: unknown }).name;
    if (typeof name !== 'string' || !name) return undefined;
    names = [name];
  }
  const stamps: string[] = [];
  for (const [k, name] of names.entries()) {
    const sheet = iconSheet(c, name, names.length > 1 ? k : undefined);
    if (!sheet) continue;
    let feats = f;
    if (image.kind !== 'constant') {
      // This name's features: the layer's features node with the icon-image expression equal to it.
      const base = { ...c.g.nodes[f]! };
      const pick = ['==', ['to-string', image.expr], name];
      base['filter-expr'] = base['filter-expr'] === undefined ? pick : ['all', base['filter-expr'], pick];
      feats = c.g.add(`${c.id}-features-icon-${k}`, base);
    }
    stamps.push(stampNode(c, feats, sheet, names.length > 1 ? k : undefined));
  }
  if (placement !== 'point' && stamps.length) c.note('icon-image', 'icons along lines are not supported; icons are drawn at point features only');
  const anchor = constant(c, 'icon-anchor');
  if (typeof anchor === 'string' && anchor !== 'center') c.note('icon-anchor', 'icons are centred on their points');
  for (const p of ['icon-offset', 'icon-translate', 'icon-text-fit', 'icon-color', 'icon-halo-color', 'icon-halo-width', 'icon-halo-blur']) {
    if (c.isSet(p)) c.note(p, 'not supported; ignored');
  }
  const overlap = constant(c, 'icon-allow-overlap');
  const overlapMode = constant(c, 'icon-overlap');
  if (overlap !== true && overlapMode !== 'always')
    c.note('icon-allow-overlap', 'icons are drawn at every point without collision detection (as icon-allow-overlap: true)');
  c.touch(...ICON_PROPS);
  if (!stamps.length) return undefined;
  let out = stamps[0]!;
  for (let k = 1; k < stamps.length; k++) out = c.g.add(`${c.id}-icons-over`, { op: 'blend', base: '@' + out, over: '@' + stamps[k] });
  return out;
}

/** Icon names drawn for one data-driven icon-image layer, at most. */
const MAX_ICON_NAMES = 64;

/**
 * Every name a zoom or data expression of icon-image can give: the string outputs of its match,
 * case, step, coalesce and image forms; undefined when an output is computed (get, concat...).
 */
export function iconNames(e: unknown): string[] | undefined {
  const out = new Set<string>();
  const walk = (x: unknown): boolean => {
    if (typeof x === 'string') {
      if (x) out.add(x);
      return true;
    }
    if (!Array.isArray(x)) return x === null || x === undefined;
    const [op, ...a] = x as [unknown, ...unknown[]];
    switch (op) {
      case 'literal':
        return typeof a[0] === 'string' ? walk(a[0]) : false;
      case 'image':
      case 'to-string':
        return walk(a[0]);
      case 'match':
        // input, label, output, ..., fallback: the outputs and the fallback.
        return a.slice(1).every((v, i, arr) => (i % 2 === 0 && i !== arr.length - 1) || walk(v));
      case 'case':
        return a.every((v, i, arr) => (i % 2 === 0 && i !== arr.length - 1 ? true : walk(v)));
      case 'step':
        return a.slice(1).every((v, i) => i % 2 === 1 || walk(v));
      case 'coalesce':
        return a.every(walk);
      default:
        return false;
    }
  };
  return walk(e) ? [...out] : undefined;
}

/** The `icon` node of one sprite name, or undefined (noted) when the style has no sprite for it. */
function iconSheet(c: LayerContext, name: string, k: number | undefined): string | undefined {
  const sprite = c.style.sprite;
  const colon = name.indexOf(':');
  const [id, icon] = colon > 0 && Array.isArray(sprite) ? [name.slice(0, colon), name.slice(colon + 1)] : ['default', name];
  const base = typeof sprite === 'string' ? (id === 'default' ? sprite : undefined) : Array.isArray(sprite) ? sprite.find((x) => x?.id === id)?.url : undefined;
  if (!base) {
    c.note('icon-image', `the style has no sprite${id === 'default' ? '' : ` '${id}'`} for icon '${name}'; it is not drawn`);
    return undefined;
  }
  return c.g.add(k === undefined ? `${c.id}-icon` : `${c.id}-icon-${k}`, { op: 'icon', sprite: base, name: icon, missing: 'transparent' });
}

/** A stamp of `sheet` at the points of `feats`, at icon-size, icon-rotate and icon-opacity. */
function stampNode(c: LayerContext, feats: string, sheet: string, k: number | undefined): string {
  const node: NodeSpec = { op: 'stamp', features: '@' + feats, sprite: '@' + sheet };
  const size = c.setNumber(node, 'icon-size', { field: 'scale', exprField: 'scale-expr' });
  if (size.kind !== 'constant') node['size-max'] = 256;
  c.setNumber(node, 'icon-rotate', { field: 'rotation', exprField: 'rotation-expr' });
  c.setNumber(node, 'icon-opacity', { field: 'opacity', exprField: 'opacity-expr' });
  return c.g.add(k === undefined ? `${c.id}-icons` : `${c.id}-icons-${k}`, node);
}
