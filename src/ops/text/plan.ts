// What both backends draw for a text node: the candidates of every feature, the labels placed
// (placement.ts), and for those that reach the canvas their halo and glyph rings in canvas pixels
// with their colours, in paint order (every halo under every text). The CPU fills them with the
// exact-area rasterizer, the GPU with the earcut + coverage pipeline: the same polygons.
import polylabel from 'polylabel';
import type { RingSet } from '../../backends/cpu/rasterize.js';
import { RenderError } from '../../errors.js';
import type { ExprFeature } from '../../expr/index.js';
import { clamp01, explicitMax } from '../../expr/paint.js';
import { type Clipper, loadClipper, unionRings, unionRingsTo } from '../../geometry/clipper.js';
import { ringArea } from '../../geometry/clip.js';
import { worldSize, type WholeFeature } from '../../geometry/whole.js';
import { growWindow, type Features, type RGBA } from '../../types.js';
import type { OpContext } from '../types.js';
import { cumulative, gridAnchors, type LineRun, placeAlong, pointAt, spacedAnchors, turnedBox } from './along.js';
import { groupLabelFeatures, type LabelFeature, owns, type Placement, regionShifts, wholeFeaturesOf, wholeLabelFeature } from './features.js';
import type { FontStack } from './shape.js';
import { type GlyphRings, packRings, RingPacker, ringsWithBoxes, SizedGlyphs } from './glyphs.js';
import { type Anchor, type Justify, type Layout, type LayoutOptions, layoutPoint, lineWidth } from './layout.js';
import { ByteLru } from '../../util/byte-lru.js';
import { type Candidate, hashLabel, outerBox, place } from './placement.js';
import { DEFAULT_FONT, fontStackOf } from './fonts.js';
import { concat } from '../../util/concat.js';

/** Largest label size in pixels (at pixel ratio 1); larger sizes clamp to it. */
export const MAX_SIZE = 256;
/** Most halo steps drawn for a blurred halo (one ring per step). */
const MAX_HALO_STEPS = 16;

/** A placed label, in world pixels: what dependents (avoid) and hosts (the workbench) read. */
export interface PlacedLabel {
  text: string;
  feature: ExprFeature;
  x: number;
  y: number;
  /** Collision boxes (padding included), world pixels. */
  boxes: Float64Array;
}

/** A label the node considered, placed or not (TextPlacement.candidates). */
export interface CandidateLabel extends PlacedLabel {
  placed: boolean;
}

/**
 * What a text node publishes: its placed labels anchored within its canvas grown by its reach and
 * max-extent, where every canvas decides them alike (docs/format.md, "Text placement").
 */
export interface TextPlacement {
  placed: PlacedLabel[];
  /** Every placed label's boxes, flat: obstacles for the nodes that avoid this one. */
  boxes: Float64Array;
  /**
   * Every candidate anchored in the same region, placed or not (the placed ones are `placed`'s
   * objects): only when asked for (OpDef.decide, the workbench's label boxes), else absent.
   */
  candidates?: CandidateLabel[];
}

/** One filled shape: rings (canvas pixels once shifted by dx, dy) and a premultiplied colour. */
export interface TextShape {
  rings: RingSet;
  dx: number;
  dy: number;
  rgba: [number, number, number, number];
  /** Box of the shifted rings, canvas pixels. */
  box: [number, number, number, number];
  /** Each ring's box before the shift ([x0, y0, x1, y1] at 4 k; GlyphRings.ringBoxes). */
  ringBoxes?: Float64Array;
}

/** A point label laid out once per text, size and layout fields: its glyphs from the anchor, and its ink box. */
interface PointLabel {
  key: string;
  layout: Layout;
  /** Box of the glyph outlines from the anchor (no halo). */
  ink: [number, number, number, number];
  byteLength: number;
}

/** Bytes of laid-out point labels and of their united outlines and halos kept per font list. */
const LAYOUT_CACHE_BYTES = 8 * 1024 * 1024;
const SHAPE_CACHE_BYTES = 32 * 1024 * 1024;
const layouts = new WeakMap<FontStack, ByteLru<PointLabel>>();
const shapeCache = new WeakMap<FontStack, ByteLru<GlyphRings>>();

function cacheFor<T extends { byteLength: number }>(map: WeakMap<FontStack, ByteLru<T>>, stack: FontStack, bytes: number): ByteLru<T> {
  let c = map.get(stack);
  if (!c) map.set(stack, (c = new ByteLru<T>(bytes)));
  return c;
}

interface Glyphs {
  fonts: Uint8Array;
  gids: Uint16Array;
  /** Glyph origins, world pixels. */
  x: Float64Array;
  y: Float64Array;
  /** Rotation of each glyph (line labels); absent for point labels. */
  cos?: Float64Array;
  sin?: Float64Array;
}

interface LabelCandidate extends Candidate {
  text: string;
  feature: ExprFeature;
  size: number;
  color: RGBA;
  /** A point label: its layout (glyphs from the anchor); a line label: its glyphs in world pixels. */
  point?: PointLabel;
  glyphs?: Glyphs;
  /** Ink box (glyph outlines, no halo), world pixels. */
  ink: [number, number, number, number];
  /** Set on candidates shared through the feature cache: the key of their drawn rings (labelRings). */
  id?: number;
  /** The whole feature it labels, its world copy shift and its place in the feature's labels (the paint order of shared placements). */
  whole?: WholeFeature;
  shift?: number;
  ord?: number;
  /** Characters of its text no font has (a warning key: text NUL characters). */
  missing?: string;
}

/** The node's placement radius: E (max-extent) and the rounds; the margin its features need is E (4 rounds - 1). */
export function reachOf(extent: number, rounds: number): number {
  return extent * (4 * rounds - 1);
}

/** The published placement of an avoided node wired at `field`, if it has one. */
function obstaclesOf(ctx: OpContext): Float64Array | undefined {
  const list = ctx.node.avoid;
  if (!Array.isArray(list) || !list.length) return undefined;
  const parts: Float64Array[] = [];
  for (let i = 0; i < list.length; i++) {
    const p = ctx.published?.(`avoid/${i}`) as TextPlacement | undefined;
    if (!p) throw new RenderError(`node '${ctx.id}' field 'avoid': '${String(list[i])}' published no placement (is it a text node?)`);
    parts.push(p.boxes);
  }
  return concat(parts, (n) => new Float64Array(n));
}

/** The sample a legend swatch shows when its stand-in feature gives the expression no text. */
export const LEGEND_SAMPLE = 'Aa';

/** A string from the text expression (numbers as the style-spec's to-string gives them). */
function textOf(ctx: OpContext, f: ExprFeature): string {
  const e = ctx.expr('text-expr');
  const v = e?.evaluate(ctx.zoom, f);
  const t = typeof v === 'string' ? v.trim() : '';
  return t || (ctx.sources.standIn ? LEGEND_SAMPLE : '');
}

/** A polygon label's point: the pole of inaccessibility of the largest polygon, and that polygon's area. */
interface Pole {
  x: number;
  y: number;
  area: number;
}

/** Poles of whole features, Mercator units (memoised: a feature's polygons never change). */
const poles = new WeakMap<WholeFeature, Pole | null>();

/** The pole of the largest polygon (exterior area less its holes), within `precision`. */
function poleOf(polygons: readonly Float64Array[][], precision: (box: number[]) => number): Pole | null {
  let best: readonly Float64Array[] | undefined;
  let bestArea = 0;
  for (const poly of polygons) {
    const a = poly.reduce((sum, r) => sum + ringArea(r), 0);
    if (Math.abs(a) > bestArea) {
      bestArea = Math.abs(a);
      best = poly;
    }
  }
  if (!best || !best[0] || best[0].length < 6) return null;
  const rings = best.map((r) => {
    const pts: number[][] = [];
    for (let i = 0; i + 1 < r.length; i += 2) pts.push([r[i]!, r[i + 1]!]);
    return pts;
  });
  const xs = rings[0]!.map((p) => p[0]!);
  const ys = rings[0]!.map((p) => p[1]!);
  const p = polylabel(rings, precision([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]));
  return Number.isFinite(p[0]) && Number.isFinite(p[1]) ? { x: p[0]!, y: p[1]!, area: bestArea } : null;
}

/** A polygon feature's label point in world pixels and its polygon's area in Mercator units (one label per feature). */
function polygonPole(f: LabelFeature, W: number): Pole | null {
  if (f.whole) {
    let p = poles.get(f.whole);
    if (p === undefined) {
      p = poleOf(f.whole.polygons, (b) => Math.max(b[2]! - b[0]!, b[3]! - b[1]!) * 1e-4 || 1e-12);
      poles.set(f.whole, p);
    }
    return p && { x: p.x * W + f.shift, y: p.y * W, area: p.area };
  }
  const p = poleOf(f.polygons, () => 0.5);
  return p && { ...p, area: p.area / (W * W) };
}

/**
 * Everything a text node draws and publishes for its canvas. `decideOnly`: no shapes (nothing is
 * drawn), and the placement lists every candidate (OpDef.decide).
 */
export async function textPlan(ctx: OpContext, decideOnly = false): Promise<{ shapes: TextShape[]; placement: TextPlacement }> {
  const s = textSettings(ctx);
  const { extent, rounds, reach, haloWidth, haloBlur, haloColor } = s;
  const stack = await fontStackOf(ctx, ctx.node.font ?? DEFAULT_FONT);
  const clipper = await loadClipper();
  const canvas = ctx.canvas;
  const W = worldSize(canvas);
  const decided = growWindow(canvas, reach + extent);
  const region = growWindow(canvas, reach + reachOf(extent, rounds));
  const input = ctx.input<'features'>('features') as Features;

  // Halo layers: nested outlines from the innermost, each with the alpha that makes the stack a
  // linear ramp from the full halo colour at width - blur / 2 to nothing at width + blur / 2.
  const steps = haloBlur > 0 ? Math.max(2, Math.min(MAX_HALO_STEPS, Math.ceil(haloBlur))) : haloWidth > 0 ? 1 : 0;
  const haloDistances: number[] = [];
  for (let k = 0; k < steps; k++) haloDistances.push(Math.max(0, steps === 1 ? haloWidth : haloWidth - haloBlur / 2 + ((k + 0.5) * haloBlur) / steps));
  const reachOfHalo = haloDistances.length ? haloDistances[haloDistances.length - 1]! : 0;

  // Published: the labels decided exactly (anchored within the canvas grown by reach + max-extent).
  const inDecided = (c: Candidate) => c.x >= decided.x0 && c.y >= decided.y0 && c.x < decided.x0 + decided.width && c.y < decided.y0 + decided.height;
  const avoids = Array.isArray(ctx.node.avoid) && ctx.node.avoid.length > 0;
  const whole = !decideOnly && !avoids && !ctx.sources.standIn ? input.whole?.features() : undefined;
  let cands: LabelCandidate[] = [];
  let placedFlags: boolean[] = [];
  let placed: LabelCandidate[];
  if (whole) {
    // Whole features and no avoided node: the decisions of world cells, shared by every canvas.
    placed = await cellPlacement(ctx, s, stack, input, whole, decided, W, reachOfHalo);
  } else {
    const got = await gatherCandidates(ctx, s, stack, input, region, W, reachOfHalo);
    reportLabels(ctx, s, stack, got.warnings, got.tooWide.length / 2);
    cands = got.cands;
    // Only the labels this canvas publishes or draws are asked for (placeWanted: the same flags).
    const wanted = new Uint8Array(cands.length);
    for (let i = 0; i < cands.length; i++) if (inDecided(cands[i]!) || reachesCanvas(cands[i]!, canvas, reachOfHalo)) wanted[i] = 1;
    placedFlags = place(cands, rounds, obstaclesOf(ctx), wanted);
    placed = [];
    for (let i = 0; i < cands.length; i++) if (placedFlags[i]) placed.push(cands[i]!);
  }
  const published = placed.filter(inDecided);
  const boxes = concat(
    published.map((c) => c.boxes),
    (n) => new Float64Array(n),
  );
  const label = (c: LabelCandidate, isPlaced: boolean): CandidateLabel => ({
    text: c.text,
    feature: c.feature,
    x: c.x,
    y: c.y,
    boxes: c.boxes,
    placed: isPlaced,
  });
  if (decideOnly) {
    const all: CandidateLabel[] = [];
    for (let i = 0; i < cands.length; i++) if (inDecided(cands[i]!)) all.push(label(cands[i]!, placedFlags[i]!));
    return { shapes: [], placement: { placed: all.filter((c) => c.placed), boxes, candidates: all } };
  }
  const result: TextPlacement = { placed: published.map((c) => label(c, true)), boxes };

  return { shapes: labelShapes(clipper, stack, placed, canvas, haloColor, haloDistances), placement: result };
}

/** The text node's fields as its plan reads them (sizes in render pixels, clamped to their bounds). */
function textSettings(ctx: OpContext) {
  const node = ctx.node;
  const ratio = ctx.window.pixelRatio ?? 1;
  const extent = ctx.bound('max-extent');
  const rounds = Math.max(1, Math.min(4, Math.round(ctx.num('rounds', 2))));
  const reach = ctx.reach ?? 0;
  const placement = (node.placement as Placement | undefined) ?? 'point';
  const padding = Math.max(0, ctx.num('padding', 2));
  const haloWidth = Math.max(0, Math.min(ctx.num('halo-width', 0), 32 * ratio));
  const haloBlur = Math.max(0, Math.min(ctx.num('halo-blur', 0), 16 * ratio));
  const baseColor = ctx.color('color', [0, 0, 0, 1]);
  const haloColor = ctx.color('halo-color', [1, 1, 1, 1]);
  const colorExpr = ctx.expr('color-expr');
  const sizeExpr = ctx.expr('size-expr');
  const priorityExpr = ctx.expr('priority-expr');
  const maxSize = MAX_SIZE * ratio;
  const sizeMax = explicitMax(ctx, 'size');
  const baseSize = ctx.num('size', 16);
  const layoutBase = {
    maxWidth: Math.max(0, ctx.num('max-width', 0)),
    lineHeight: ctx.num('line-height', 1.2),
    letterSpacing: ctx.num('letter-spacing', 0),
    justify: ((node.justify as Justify | undefined) ?? 'center') as Justify,
    anchor: ((node.anchor as Anchor | undefined) ?? 'center') as Anchor,
    offsetX: ctx.nums('offset')?.[0] ?? 0,
    offsetY: ctx.nums('offset')?.[1] ?? 0,
  };
  const layoutKey = layoutIdOf(JSON.stringify(layoutBase));
  const spacing = Math.max(1, ctx.num('spacing', 250));
  const maxAngle = (Math.max(0, Math.min(180, ctx.num('max-angle', 45))) * Math.PI) / 180;
  const upright = ctx.bool('keep-upright', true);

  return {
    ratio,
    extent,
    rounds,
    reach,
    placement,
    padding,
    haloWidth,
    haloBlur,
    baseColor,
    haloColor,
    colorExpr,
    sizeExpr,
    priorityExpr,
    maxSize,
    sizeMax,
    baseSize,
    layoutBase,
    layoutKey,
    spacing,
    maxAngle,
    upright,
  };
}

type TextSettings = ReturnType<typeof textSettings>;

/**
 * The labels one feature offers (before the region filter) and what to report about them: a pure
 * function of the feature, its world size and shift and the node's resolved fields (settingsKey).
 */
interface FeatureLabels {
  cands: LabelCandidate[];
  /** Anchors (x, y pairs) of labels left out for reaching past max-extent: reported where they lie in a region. */
  tooWide: number[];
  /** The text and the characters no font has (a warning), if any. */
  missing?: string;
  byteLength: number;
}

/**
 * Labels of whole features (GeoJSON) and tiled sources' pieces, shared by every canvas and render
 * that shows them (neighbouring tiles, re-renders, the avoid pass): a feature's labels depend only on
 * the feature, the world size, its world copy and the node's resolved fields, so any canvas that
 * asks gets the same candidates, whichever asked first. Keyed by a per-feature id (a WeakMap on the
 * feature object: the source's byte-bounded cache keeps those alive) and the settings id; bounded by
 * FEATURE_CACHE_BYTES (an entry counts its candidates' boxes and glyph arrays), least recently used
 * out first. A feature larger than the bound is computed each time, not kept.
 */
const FEATURE_CACHE_BYTES = 32 * 1024 * 1024;
const featureLabelCache = new ByteLru<FeatureLabels | LabelRun>(FEATURE_CACHE_BYTES);
const featureIds = new WeakMap<object, number>();
let nextFeatureId = 0;
function idOfObject(o: object): number {
  let id = featureIds.get(o);
  if (id === undefined) featureIds.set(o, (id = nextFeatureId++));
  return id;
}
/** Empty the feature and cell caches (tests: decisions must not depend on which canvas computed them first). */
export function clearSharedLabels(): void {
  featureLabelCache.clear();
  cellCache.clear();
}
/** Ids of candidates shared through the feature cache: their drawn rings are cached under them (labelRings). */
let nextCandidateId = 0;

/** Bytes a candidate holds (boxes, glyph arrays, the object). */
function candidateBytes(c: LabelCandidate): number {
  let b = 160 + c.boxes.byteLength + (c.outer ? 96 : 0) + c.text.length * 2;
  const g = c.glyphs;
  if (g) b += 64 + g.fonts.byteLength + g.gids.byteLength + g.x.byteLength + g.y.byteLength + (g.cos?.byteLength ?? 0) + (g.sin?.byteLength ?? 0);
  return b;
}

/** Every field of the node a feature's labels depend on (textSettings), with the zoom, font list and halo reach: the feature cache's settings id. */
function settingsIdOf(ctx: OpContext, s: TextSettings, stack: FontStack, reachOfHalo: number): string {
  const n = ctx.node;
  return layoutIdOf(
    JSON.stringify([
      'feature-labels',
      idOfObject(stack),
      ctx.zoom,
      !!ctx.sources.standIn,
      n['text-expr'],
      n['size-expr'] ?? null,
      n['color-expr'] ?? null,
      n['priority-expr'] ?? null,
      s.ratio,
      s.extent,
      s.placement,
      s.padding,
      s.baseColor,
      s.maxSize,
      s.sizeMax,
      s.baseSize,
      s.layoutBase,
      s.spacing,
      s.maxAngle,
      s.upright,
      reachOfHalo,
    ]),
  );
}

/**
 * Every label the features offer anchored in the region (points, polygon poles, spaced along
 * lines), with its boxes grown by the padding; labels whose ink reaches past max-extent are left
 * out (their anchors listed in `tooWide`), characters no font has listed in `warnings`. Whole
 * features and pieces take their labels from the feature cache (computed once for every canvas),
 * the groups of a geometry op's output are computed for this canvas. Candidates come in the order
 * of the features, their world copies (west first) and their anchors.
 */
async function gatherCandidates(
  ctx: OpContext,
  s: TextSettings,
  stack: FontStack,
  input: Features,
  region: OpContext['canvas'],
  W: number,
  reachOfHalo: number,
): Promise<{ cands: LabelCandidate[]; warnings: Set<string>; tooWide: number[] }> {
  const rx0 = region.x0;
  const ry0 = region.y0;
  const rx1 = region.x0 + region.width;
  const ry1 = region.y0 + region.height;
  const cands: LabelCandidate[] = [];
  const warnings = new Set<string>();
  const tooWide: number[] = [];
  const take = (labels: FeatureLabels) => {
    if (labels.missing) warnings.add(labels.missing);
    for (const c of labels.cands) if (c.x >= rx0 && c.y >= ry0 && c.x < rx1 && c.y < ry1) cands.push(c);
    const t = labels.tooWide;
    for (let i = 0; i < t.length; i += 2) if (t[i]! >= rx0 && t[i + 1]! >= ry0 && t[i]! < rx1 && t[i + 1]! < ry1) tooWide.push(t[i]!, t[i + 1]!);
  };
  const list = await wholeFeaturesOf(input, ctx.signal);
  if (!list) {
    const inRegion = (x: number, y: number) => x >= rx0 && y >= ry0 && x < rx1 && y < ry1;
    for (const f of groupLabelFeatures(input)) take(featureLabels(ctx, s, stack, f, inRegion, W, reachOfHalo));
    return { cands, warnings, tooWide };
  }
  const sid = settingsIdOf(ctx, s, stack, reachOfHalo);
  // Within the world's first copy, a feature whose box lies strictly inside it has no other copy
  // here: only shift 0, where its box meets the region (regionShifts' answer without its arrays).
  const oneCopy = rx0 >= 0 && rx1 <= W;
  for (let a = 0; a < list.length; ) {
    const run = labelRun(list, a, W, sid);
    const b = a + run.members.length;
    for (let i = a; i < b; i++) {
      const w = list[i]!;
      const box = w.box;
      if (oneCopy && box[0] > 0 && box[2] < 1) {
        if (box[3] * W < ry0 || box[1] * W > ry1 || box[2] * W < rx0 || box[0] * W > rx1) continue;
        take(runLabels(ctx, s, stack, run, i - a, W, reachOfHalo));
        continue;
      }
      for (const dx of regionShifts(w, region, W)) {
        if (dx === 0) take(runLabels(ctx, s, stack, run, i - a, W, reachOfHalo));
        else take(shiftedLabels(ctx, s, stack, w, dx, W, sid, reachOfHalo));
      }
    }
    a = b;
  }
  return { cands, warnings, tooWide };
}

/**
 * The labels of a run of whole features (at most RUN_MAX consecutive features of a layer with the
 * same owner: a tiled source's pieces of one source tile, or a GeoJSON layer), each at world
 * shift 0 and computed when a canvas first needs it: one cache entry a run instead of one a
 * feature, so a canvas reading ~700 pieces looks up ~20 keys. Keyed by the run's first and last
 * feature, its length, the world size and the settings id; `members` are checked on every hit (a
 * differently filtered list of the same source tile gets its own entry). Kept in the feature
 * cache, whose bound counts every label a run holds.
 */
interface LabelRun {
  key: string;
  members: WholeFeature[];
  labels: (FeatureLabels | undefined)[];
  byteLength: number;
}
/** Most features in one run (a run's labels are one cache entry: kept well under the cache's bound). */
const RUN_MAX = 256;

/** The run starting at list[a]: its cache entry, or a new empty one. */
function labelRun(list: readonly WholeFeature[], a: number, W: number, sid: string): LabelRun {
  const owner = list[a]!.owner;
  let b = a + 1;
  while (b < list.length && b - a < RUN_MAX && list[b]!.owner === owner) b++;
  const key = `r|${idOfObject(list[a]!)}|${idOfObject(list[b - 1]!)}|${b - a}|${W}|${sid}`;
  const hit = featureLabelCache.get(key) as LabelRun | undefined;
  if (hit && hit.members.every((w, i) => w === list[a + i])) return hit;
  const run: LabelRun = { key, members: list.slice(a, b), labels: new Array(b - a), byteLength: 64 + (b - a) * 16 };
  featureLabelCache.set(key, run);
  return run;
}

/** Member k's labels at shift 0 (computed and counted in the run's bytes on first use). */
function runLabels(ctx: OpContext, s: TextSettings, stack: FontStack, run: LabelRun, k: number, W: number, reachOfHalo: number): FeatureLabels {
  let labels = run.labels[k];
  if (!labels) {
    labels = featureLabels(ctx, s, stack, wholeLabelFeature(run.members[k]!, W, 0, s.placement), undefined, W, reachOfHalo);
    for (const c of labels.cands) c.id = nextCandidateId++;
    run.labels[k] = labels;
    // The cache reads the bytes of the entry it holds: the run, under its key, again counted.
    const grown: LabelRun = { ...run, byteLength: run.byteLength + labels.byteLength };
    featureLabelCache.set(run.key, grown);
    run.byteLength = grown.byteLength;
  }
  return labels;
}

/** A whole feature's labels in another world copy (shift dx), cached per feature. */
function shiftedLabels(
  ctx: OpContext,
  s: TextSettings,
  stack: FontStack,
  w: WholeFeature,
  dx: number,
  W: number,
  sid: string,
  reachOfHalo: number,
): FeatureLabels {
  const key = `${idOfObject(w)}|${dx}|${W}|${sid}`;
  let labels = featureLabelCache.get(key) as FeatureLabels | undefined;
  if (!labels) {
    labels = featureLabels(ctx, s, stack, wholeLabelFeature(w, W, dx, s.placement), undefined, W, reachOfHalo);
    for (const c of labels.cands) c.id = nextCandidateId++;
    featureLabelCache.set(key, labels);
  }
  return labels;
}

/** Report characters no font has (`warnings`: text NUL characters) and labels left out for reaching past max-extent, through the sources' warn. */
function reportLabels(ctx: OpContext, s: TextSettings, stack: FontStack, warnings: Iterable<string>, tooWide: number): void {
  for (const w of warnings) {
    const [text, missing] = w.split('\u0000');
    ctx.sources.warn?.(
      `text: no font of ${fontListText(stack)} has ${[...new Set(missing)].map((c) => `'${c}' (U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`).join(', ')}; label '${text}' is drawn without them`,
    );
  }
  if (tooWide)
    ctx.sources.warn?.(
      `text: node '${ctx.id}': labels reaching farther than max-extent (${s.extent / s.ratio} px) from their anchor are not drawn; raise max-extent or wrap them (max-width)`,
    );
}

/** The placed labels anchored in one world cell, and what to report about the cell's candidates. */
interface CellDecision {
  placed: LabelCandidate[];
  warnings: string[];
  tooWide: number;
  byteLength: number;
}

/**
 * Placement decisions of whole features (GeoJSON) per world cell, shared by every canvas: the
 * labels placed among those anchored in a cell of CELL px (a power of two, at least 4 E), decided
 * over the cell grown by E (4R - 2), where the guarantee makes them exact (docs/format.md). Keyed
 * by the layer's feature list (its identity), the node's settings id, rounds, world size and cell;
 * bounded by CELL_CACHE_BYTES, least recently used out first.
 */
const CELL_CACHE_BYTES = 8 * 1024 * 1024;
const cellCache = new ByteLru<CellDecision>(CELL_CACHE_BYTES);
/** Order of whole features in their layer, for painting shared labels in the order a canvas would. */
const layerOrder = new WeakMap<readonly WholeFeature[], Map<WholeFeature, number>>();

function cellSizeOf(extent: number): number {
  let c = 256;
  while (c < 4 * extent) c *= 2;
  return c;
}

/**
 * The placed labels anchored in `decided`, in the order a single canvas would list them (feature,
 * world copy, anchor), from the cells that cover it: cells already decided are read from the cell
 * cache, the rest decided together over their box grown by E (4R - 2) and kept.
 */
async function cellPlacement(
  ctx: OpContext,
  s: TextSettings,
  stack: FontStack,
  input: Features,
  layer: readonly WholeFeature[],
  decided: OpContext['canvas'],
  W: number,
  reachOfHalo: number,
): Promise<LabelCandidate[]> {
  const { extent, rounds } = s;
  const C = cellSizeOf(extent);
  const M = reachOf(extent, rounds) - extent;
  const cx0 = Math.floor(decided.x0 / C);
  const cy0 = Math.floor(decided.y0 / C);
  const cx1 = Math.floor((decided.x0 + decided.width) / C);
  const cy1 = Math.floor((decided.y0 + decided.height) / C);
  const prefix = `${idOfObject(layer)}|${settingsIdOf(ctx, s, stack, reachOfHalo)}|${rounds}|${W}|${C}|`;
  const cells = new Map<string, CellDecision | undefined>();
  let mx0 = Infinity;
  let my0 = Infinity;
  let mx1 = -Infinity;
  let my1 = -Infinity;
  for (let cy = cy0; cy <= cy1; cy++)
    for (let cx = cx0; cx <= cx1; cx++) {
      const key = `${prefix}${cx},${cy}`;
      const hit = cellCache.get(key);
      cells.set(key, hit);
      if (hit) continue;
      mx0 = Math.min(mx0, cx);
      my0 = Math.min(my0, cy);
      mx1 = Math.max(mx1, cx);
      my1 = Math.max(my1, cy);
    }
  if (mx0 <= mx1) {
    // The box of the undecided cells grown by E (4R - 2): every candidate that can sway a label
    // anchored in them (the cells between, already decided, are decided again alike and kept).
    const region = { ...decided, x0: mx0 * C - M, y0: my0 * C - M, width: (mx1 - mx0 + 1) * C + 2 * M, height: (my1 - my0 + 1) * C + 2 * M };
    const got = await gatherCandidates(ctx, s, stack, input, region, W, reachOfHalo);
    const flags = place(got.cands, rounds);
    const fresh = new Map<string, CellDecision>();
    const cellOf = (x: number, y: number): CellDecision | undefined => {
      const cx = Math.floor(x / C);
      const cy = Math.floor(y / C);
      if (cx < mx0 || cx > mx1 || cy < my0 || cy > my1) return undefined;
      const key = `${prefix}${cx},${cy}`;
      let e = fresh.get(key);
      if (!e) fresh.set(key, (e = { placed: [], warnings: [], tooWide: 0, byteLength: 128 }));
      return e;
    };
    for (let cy = my0; cy <= my1; cy++) for (let cx = mx0; cx <= mx1; cx++) cellOf(cx * C, cy * C);
    got.cands.forEach((c, i) => {
      const e = cellOf(c.x, c.y);
      if (!e) return;
      if (flags[i]) {
        e.placed.push(c);
        e.byteLength += 16;
      }
      if (c.missing && !e.warnings.includes(c.missing)) {
        e.warnings.push(c.missing);
        e.byteLength += 32 + c.missing.length * 2;
      }
    });
    for (let i = 0; i < got.tooWide.length; i += 2) {
      const e = cellOf(got.tooWide[i]!, got.tooWide[i + 1]!);
      if (e) e.tooWide++;
    }
    for (const [key, e] of fresh) {
      cellCache.set(key, e);
      if (cells.has(key)) cells.set(key, e);
    }
  }
  const inDecided = (c: Candidate) => c.x >= decided.x0 && c.y >= decided.y0 && c.x < decided.x0 + decided.width && c.y < decided.y0 + decided.height;
  const placed: LabelCandidate[] = [];
  const warnings = new Set<string>();
  let tooWide = 0;
  for (const e of cells.values()) {
    if (!e) continue;
    for (const c of e.placed) if (inDecided(c)) placed.push(c);
    for (const w of e.warnings) warnings.add(w);
    tooWide += e.tooWide;
  }
  reportLabels(ctx, s, stack, warnings, tooWide);
  // The order one canvas lists them in (labels that overlap paint alike): feature, copy, anchor.
  let order = layerOrder.get(layer);
  if (!order) layerOrder.set(layer, (order = new Map(layer.map((w, i) => [w, i]))));
  const rank = (c: LabelCandidate) => order.get(c.whole!) ?? 0;
  return placed.sort((a, b) => rank(a) - rank(b) || a.shift! - b.shift! || a.ord! - b.ord!);
}

/**
 * The labels of one feature, in the feature's order of anchors; with `inRegion`, only those
 * anchored in the region (a canvas's own groups), else all of them (the feature cache).
 */
function featureLabels(
  ctx: OpContext,
  s: TextSettings,
  stack: FontStack,
  f: LabelFeature,
  inRegion: ((x: number, y: number) => boolean) | undefined,
  W: number,
  reachOfHalo: number,
): FeatureLabels {
  const {
    extent,
    placement,
    padding,
    baseColor,
    colorExpr,
    sizeExpr,
    priorityExpr,
    maxSize,
    sizeMax,
    baseSize,
    layoutBase,
    layoutKey,
    spacing,
    maxAngle,
    upright,
  } = s;
  const out: FeatureLabels = { cands: [], tooWide: [], byteLength: 256 };
  const text = textOf(ctx, f.feature);
  if (!text) return out;
  const sizeV = sizeExpr ? sizeExpr.evaluate(ctx.zoom, f.feature) : baseSize;
  const size = Math.min(typeof sizeV === 'number' ? sizeV : baseSize, sizeMax, maxSize);
  if (!(size > 0)) return out;
  const cv = colorExpr?.evaluate(ctx.zoom, f.feature);
  const color = Array.isArray(cv) ? (cv as RGBA) : baseColor;
  const pv = priorityExpr?.evaluate(ctx.zoom, f.feature);
  const priority = typeof pv === 'number' ? pv : 0;
  const within = inRegion ?? (() => true);
  let weight = 0;
  const add = (x: number, y: number, ink: [number, number, number, number], boxes: Float64Array, label: { point?: PointLabel; glyphs?: Glyphs }) => {
    // Whole or not at all: a label whose ink or halo reaches past max-extent is never placed.
    if (Math.max(x - ink[0], ink[2] - x, y - ink[1], ink[3] - y) + reachOfHalo > extent) {
      out.tooWide.push(x, y);
      return;
    }
    for (let i = 0; i < boxes.length; i += 4) {
      boxes[i] = boxes[i]! - padding;
      boxes[i + 1] = boxes[i + 1]! - padding;
      boxes[i + 2] = boxes[i + 2]! + padding;
      boxes[i + 3] = boxes[i + 3]! + padding;
    }
    // Every field in the literal, in one order: one hidden class for every candidate, so the code
    // that reads them stays monomorphic (a spread, or a field added after, made one class per kind
    // of label and one more per late field, each a deopt where it first showed up).
    const c: LabelCandidate = {
      x,
      y,
      priority,
      weight,
      hash: hashLabel(text, x / W, y / W),
      boxes,
      outer: outerBox(boxes),
      text,
      feature: f.feature,
      size,
      color,
      ink,
      point: label.point,
      glyphs: label.glyphs,
      id: undefined,
      whole: f.whole,
      shift: f.shift,
      ord: out.cands.length,
      missing: out.missing,
    };
    out.cands.push(c);
    out.byteLength += candidateBytes(c);
  };
  if (placement === 'line') {
    const run = lineRun(stack, text, size, layoutBase.letterSpacing);
    if (run.layout.missing) out.missing = `${text}\u0000${run.layout.missing}`;
    const lines = [...f.lines];
    for (const poly of f.polygons) for (const r of poly) lines.push(closed(r));
    for (const line of lines) {
      if (line.length < 4) continue;
      const cum = cumulative(line);
      const total = cum[cum.length - 1]!;
      const at = f.source === 'clipped' ? gridAnchors(line, cum, spacing) : spacedAnchors(total, spacing, run.length);
      for (const a of at) {
        // The anchor's tests first (placeAlong's x, y is this point): a label another canvas or piece owns lays out nothing.
        const [ax, ay] = pointAt(line, cum, a);
        if (!within(ax, ay) || !owns(f, ax, ay)) continue;
        const p = placeAlong(line, cum, a, run, maxAngle, upright);
        if (!p) continue;
        const glyphs = { fonts: run.layout.fonts, gids: run.layout.gids, x: p.gx, y: p.gy, cos: p.cos, sin: p.sin };
        add(p.x, p.y, inkBox(stack, glyphs, size), p.boxes, { glyphs });
      }
    }
    return out;
  }
  const pole = placement === 'polygon' ? polygonPole(f, W) : undefined;
  weight = pole?.area ?? 0;
  const points = pole ? [pole.x, pole.y] : placement === 'polygon' ? [] : f.points;
  if (!points.length) return out;
  const label = pointLabel(stack, text, size, layoutBase, layoutKey);
  if (label.layout.missing) out.missing = `${text}\u0000${label.layout.missing}`;
  const b = label.layout.box;
  const k = label.ink;
  for (let i = 0; i + 1 < points.length; i += 2) {
    const x = points[i]!;
    const y = points[i + 1]!;
    if (!within(x, y) || !owns(f, x, y)) continue;
    add(x, y, [x + k[0], y + k[1], x + k[2], y + k[3]], Float64Array.of(x + b[0], y + b[1], x + b[2], y + b[3]), { point: label });
  }
  return out;
}

/** Whether a label's ink grown by its halo's reach meets the canvas (the labels labelShapes draws). */
function reachesCanvas(c: LabelCandidate, canvas: OpContext['canvas'], reachOfHalo: number): boolean {
  return (
    c.ink[2] + reachOfHalo > canvas.x0 &&
    c.ink[0] - reachOfHalo < canvas.x0 + canvas.width &&
    c.ink[3] + reachOfHalo > canvas.y0 &&
    c.ink[1] - reachOfHalo < canvas.y0 + canvas.height
  );
}

/**
 * Shapes of the placed labels that reach the canvas: halos (outermost layer first, at
 * haloDistances), then texts. A label's glyphs are united first (overlapping contours filled
 * once), its halos grown from that.
 */
function labelShapes(
  clipper: Awaited<ReturnType<typeof loadClipper>>,
  stack: Awaited<ReturnType<typeof fontStackOf>>,
  placed: LabelCandidate[],
  canvas: OpContext['canvas'],
  haloColor: RGBA,
  haloDistances: number[],
): TextShape[] {
  const steps = haloDistances.length;
  const reachOfHalo = steps ? haloDistances[steps - 1]! : 0;
  const shapes: TextShape[] = [];
  const visible = placed.filter((c) => reachesCanvas(c, canvas, reachOfHalo));
  const drawn = (c: LabelCandidate, d: number): TextShape | undefined => {
    const r = labelRings(clipper, stack, c, d);
    if (!r || !r.count) return undefined;
    const dx = (c.point ? c.x : 0) - canvas.x0;
    const dy = (c.point ? c.y : 0) - canvas.y0;
    return { rings: r, dx, dy, rgba: [0, 0, 0, 0], box: [r.box[0] + dx, r.box[1] + dy, r.box[2] + dx, r.box[3] + dy], ringBoxes: r.ringBoxes };
  };
  if (steps) {
    const ha = clamp01(haloColor[3]);
    for (const c of visible) {
      for (let j = 1; j <= steps; j++) {
        // Layer j (outermost first) of alpha a_j: after m layers the alpha is ha m / steps.
        const a = steps === 1 ? ha : ha / steps / (1 - (ha * (j - 1)) / steps);
        const sh = a > 0 ? drawn(c, haloDistances[steps - j]!) : undefined;
        if (sh) shapes.push({ ...sh, rgba: [haloColor[0] * a, haloColor[1] * a, haloColor[2] * a, a] });
      }
    }
  }
  for (const c of visible) {
    const a = clamp01(c.color[3]);
    const sh = a > 0 ? drawn(c, 0) : undefined;
    if (sh) shapes.push({ ...sh, rgba: [c.color[0] * a, c.color[1] * a, c.color[2] * a, a] });
  }
  return shapes;
}

function closed(r: Float64Array): Float64Array {
  const out = new Float64Array(r.length + 2);
  out.set(r);
  out[r.length] = r[0]!;
  out[r.length + 1] = r[1]!;
  return out;
}

function fontListText(stack: FontStack): string {
  return stack.fonts.map((f) => `'${f.ref}'`).join(', ');
}

/** Line runs (lineRun) kept per font list, by size, letter spacing and text. */
const RUN_CACHE_BYTES = 4 * 1024 * 1024;
const runCache = new WeakMap<FontStack, ByteLru<LineRun & { byteLength: number }>>();

/** A single-line layout for line placement: glyphs along x from 0, the text centred on the line (cached: read only). */
function lineRun(stack: FontStack, text: string, size: number, letterSpacing: number): LineRun {
  const cache = cacheFor(runCache, stack, RUN_CACHE_BYTES);
  const key = `${size}|${letterSpacing}|${text}`;
  let run = cache.get(key);
  if (!run) {
    const r = shapeRun(stack, text, size, letterSpacing);
    run = { ...r, byteLength: 128 + text.length * 2 + r.pen.length * 40 };
    cache.set(key, run);
  }
  return run;
}

function shapeRun(stack: FontStack, text: string, size: number, letterSpacing: number): LineRun {
  const line = stack.shape(text.replace(/\s+/g, ' '));
  const n = line.gids.length;
  const pen = new Float64Array(n);
  const advance = new Float64Array(n);
  const offX = new Float64Array(n);
  const offY = new Float64Array(n);
  let p = 0;
  let spacing = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && line.clusterStart[i]) spacing += letterSpacing;
    pen[i] = p + spacing;
    advance[i] = line.advance[i]! * size;
    offX[i] = line.x[i]! * size - p;
    offY[i] = line.y[i]! * size;
    p += advance[i]!;
  }
  const f = stack.primary;
  const asc = (f.ascender / f.upem) * size;
  const desc = (f.descender / f.upem) * size;
  // The line through the middle of the em box: the baseline (asc + desc) / 2 below it.
  const base = (asc + desc) / 2;
  for (let i = 0; i < n; i++) offY[i] = offY[i]! + base;
  const length = lineWidth(line, size, letterSpacing);
  return {
    layout: { fonts: line.fonts, gids: line.gids, x: new Float32Array(0), y: new Float32Array(0), box: [0, 0, 0, 0], missing: line.missing },
    pen,
    advance,
    offX,
    offY,
    length,
    top: -(asc - desc) / 2,
    bottom: (asc - desc) / 2,
  };
}

/**
 * The stack's fonts' glyphs at one size (d = 0: outlines; d > 0: halos at d) by font index, each
 * font's SizedGlyphs made when first asked (one cache lookup per label and font, not per glyph).
 */
function glyphsOf(stack: FontStack, size: number, d: number, clipper?: Clipper): (font: number) => SizedGlyphs {
  const made: SizedGlyphs[] = [];
  return (f) => (made[f] ??= new SizedGlyphs(stack.fonts[f]!, size, d, clipper));
}

/** Box of a line label's glyph outlines, world pixels. */
function inkBox(stack: FontStack, g: Glyphs, size: number): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const glyphs = glyphsOf(stack, size, 0);
  for (let i = 0; i < g.gids.length; i++) {
    const r = glyphs(g.fonts[i]!).get(g.gids[i]!);
    if (!r.count) continue;
    const co = g.cos ? g.cos[i]! : 1;
    const si = g.sin ? g.sin[i]! : 0;
    // The glyph's outline box turned and moved, its corners (x0, y0), (x1, y0), (x1, y1), (x0, y1) in order.
    const t = turnedBox(g.x[i]!, g.y[i]!, co, si, r.box[0], r.box[1], r.box[2], r.box[3]);
    if (t.x0 < box[0]) box[0] = t.x0;
    if (t.y0 < box[1]) box[1] = t.y0;
    if (t.x1 > box[2]) box[2] = t.x1;
    if (t.y1 > box[3]) box[3] = t.y1;
  }
  return box[0] <= box[2] ? box : [g.x[0] ?? 0, g.y[0] ?? 0, g.x[0] ?? 0, g.y[0] ?? 0];
}

/**
 * Short ids of layout-field sets, so the cache keys a label per candidate per render are short
 * strings (hashing a long key for every candidate was a tenth of a render). Bounded: past
 * MAX_LAYOUT_IDS sets the table starts over with new ids (entries under old ids age out).
 */
const layoutIds = new Map<string, string>();
let nextLayoutId = 0;
const MAX_LAYOUT_IDS = 1024;
function layoutIdOf(key: string): string {
  let id = layoutIds.get(key);
  if (id === undefined) {
    if (layoutIds.size >= MAX_LAYOUT_IDS) layoutIds.clear();
    id = (nextLayoutId++).toString(36);
    layoutIds.set(key, id);
  }
  return id;
}

/** A point label's layout and ink box, cached per font list, text, size and layout fields. */
function pointLabel(stack: FontStack, text: string, size: number, base: Omit<LayoutOptions, 'size'>, baseKey: string): PointLabel {
  const cache = cacheFor(layouts, stack, LAYOUT_CACHE_BYTES);
  const key = `${size}|${baseKey}|${text}`;
  let p = cache.get(key);
  if (!p) {
    const layout = layoutPoint(stack, text, { ...base, size });
    const x = Float64Array.from(layout.x);
    const y = Float64Array.from(layout.y);
    const ink = inkBox(stack, { fonts: layout.fonts, gids: layout.gids, x, y }, size);
    p = { key, layout, ink, byteLength: 128 + layout.gids.length * 16 + text.length * 4 };
    cache.set(key, p);
  }
  return p;
}

/** A label's glyph outlines (d = 0) or its halo at distance d, united: label-local for point labels (cached), canvas-free world pixels for line labels. */
function labelRings(clipper: Clipper, stack: FontStack, c: LabelCandidate, d: number): GlyphRings | undefined {
  const cache = cacheFor(shapeCache, stack, SHAPE_CACHE_BYTES);
  // Point labels: label-local rings, shared by every anchor of the same text; line labels: world
  // rings of one shared candidate (its id), drawn again by each tile it crosses and each re-render.
  const key = c.point ? `${c.point.key}|${d}` : c.id !== undefined ? `#${c.id}|${d}` : undefined;
  const hit = key ? cache.get(key) : undefined;
  if (hit) return hit;
  if (c.point) {
    // A point label's halo is its glyphs' halos (each grown alone, cached per font, size and
    // distance: the glyphs line labels use) moved to their pens and united: the region grown from
    // the united outline (a disk swept along a union is the union of the disks swept along its
    // parts), without offsetting every label's outline and sweeping the tangle each offset leaves
    // (docs/server.md, "Labels, fourteenth round"). Outlines (d = 0) are united the same way.
    const rings = pointLabelRings(clipper, stack, c.point.layout, c.size, d);
    if (!rings.length) return undefined;
    const out = packRings(rings);
    cache.set(key!, out);
    return out;
  }
  if (c.glyphs) {
    const out = lineLabelRings(clipper, stack, c.glyphs, c.size, d);
    if (out && key) cache.set(key, out);
    return out;
  }
  return undefined;
}

/**
 * A point label's glyph outlines (d = 0) or halo at d, label-local, as rings that do not overlap
 * (non-zero): each glyph's outline (SizedGlyphs.solid) or own halo (cached per font, size and d)
 * moved to its pen, the glyphs whose boxes overlap united, the rest as they are.
 */
export function pointLabelRings(clipper: Clipper, stack: FontStack, layout: Layout, size: number, d: number): Float64Array[] {
  const sized = glyphsOf(stack, size, d, clipper);
  const l = layout;
  const n = l.gids.length;
  const sets: GlyphRings[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const g = sized(l.fonts[i]!);
    sets[i] = d > 0 ? g.get(l.gids[i]!) : g.solid(l.gids[i]!);
  }
  const groups = overlapGroups(n, (i, j) => {
    const a = sets[i]!.box;
    const b = sets[j]!.box;
    const dx = l.x[j]! - l.x[i]!;
    const dy = l.y[j]! - l.y[i]!;
    return sets[i]!.count > 0 && sets[j]!.count > 0 && a[0] < b[2] + dx && b[0] + dx < a[2] && a[1] < b[3] + dy && b[1] + dy < a[3];
  });
  const rings: Float64Array[] = [];
  for (const g of groups) {
    if (g.length === 1) placedRings(sets[g[0]!]!, l.x[g[0]!]!, l.y[g[0]!]!, rings);
    else {
      const some: Float64Array[] = [];
      for (const i of g) placedRings(sets[i]!, l.x[i]!, l.y[i]!, some);
      for (const r of unionRings(clipper, some)) rings.push(r);
    }
  }
  return rings;
}

/** The rings of `r` moved by (x, y), pushed to `out`. */
function placedRings(r: GlyphRings, x: number, y: number, out: Float64Array[]): void {
  for (let k = 0; k < r.count; k++) {
    const ring = r.coords.slice(r.starts[k]!, r.starts[k + 1]!);
    for (let j = 0; j < ring.length; j += 2) {
      ring[j] = ring[j]! + x;
      ring[j + 1] = ring[j + 1]! + y;
    }
    out.push(ring);
  }
}

/**
 * Items 0..n-1 grouped by `overlaps(i, j)` (asked for i < j, joined transitively), each group in
 * item order and the groups in the order of their first items.
 */
function overlapGroups(n: number, overlaps: (i: number, j: number) => boolean): number[][] {
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if (!overlaps(i, j)) continue;
      const a = find(i);
      const b = find(j);
      // The smaller root stays: a group's root is its first item.
      if (a < b) parent[b] = a;
      else if (b < a) parent[a] = b;
    }
  const groups: number[][] = [];
  const at = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const r = find(i);
    if (r === i) {
      at[i] = groups.length;
      groups.push([i]);
    } else groups[at[r]!]!.push(i);
  }
  return groups;
}

/**
 * A line label's rings in world pixels: each glyph's outline (d = 0: SizedGlyphs.solid) or its own
 * halo at d (cached per glyph), turned and moved, written straight into one packed buffer with each
 * ring's box (a new placement every time: the caller caches the result per candidate). Halos are
 * the glyphs' halos summed; outlines have the glyphs that overlap united (uniteOverlapping).
 */
export function lineLabelRings(clipper: Clipper, stack: FontStack, g: Glyphs, size: number, d: number): GlyphRings | undefined {
  const n = g.gids.length;
  const sets: GlyphRings[] = new Array(n);
  let total = 0;
  let count = 0;
  const glyphs = glyphsOf(stack, size, d, clipper);
  for (let i = 0; i < n; i++) {
    const sized = glyphs(g.fonts[i]!);
    const r = d > 0 ? sized.get(g.gids[i]!) : sized.solid(g.gids[i]!);
    sets[i] = r;
    total += r.starts[r.count]!;
    count += r.count;
  }
  if (!count) return undefined;
  // One buffer: the coordinates, the rings' boxes, then their starts (the cache keeps one backing store).
  const buffer = new ArrayBuffer((total + count * 4) * 8 + (count + 1) * 4);
  const coords = new Float64Array(buffer, 0, total);
  const boxes = new Float64Array(buffer, total * 8, count * 4);
  const starts = new Int32Array(buffer, (total + count * 4) * 8, count + 1);
  let at = 0;
  let ring = 0;
  for (let i = 0; i < n; i++) {
    const r = sets[i]!;
    const co = g.cos ? g.cos[i]! : 1;
    const si = g.sin ? g.sin[i]! : 0;
    const gx = g.x[i]!;
    const gy = g.y[i]!;
    const rc = r.coords;
    for (let k = 0; k < r.count; k++) {
      starts[ring] = at;
      // The ring's box as growBox finds it (ringsOf), while the vertices are written.
      let x0 = Infinity;
      let y0 = Infinity;
      let x1 = -Infinity;
      let y1 = -Infinity;
      for (let p = r.starts[k]!, e = r.starts[k + 1]!; p < e; p += 2, at += 2) {
        const u = rc[p]!;
        const v = rc[p + 1]!;
        const x = gx + co * u - si * v;
        const y = gy + si * u + co * v;
        coords[at] = x;
        coords[at + 1] = y;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      boxes[ring * 4] = x0;
      boxes[ring * 4 + 1] = y0;
      boxes[ring * 4 + 2] = x1;
      boxes[ring * 4 + 3] = y1;
      ring++;
    }
  }
  starts[count] = at;
  const set = ringsWithBoxes(coords, starts, count, boxes);
  return d > 0 ? set : uniteOverlapping(clipper, set, g, sets);
}

/**
 * A line label's outline rings (`set`, glyph by glyph: `sets`) with the glyphs whose turned boxes
 * overlap united (non-zero), the rest as they are, in the order of each group's first glyph: a
 * line label's glyphs overlap only at joins (Arabic, Devanagari), and each glyph's own rings never
 * overlap (SizedGlyphs.solid). A label with no two glyphs overlapping is returned as it is.
 */
/** uniteOverlapping's glyph corners (8 a glyph) then boxes (4 a glyph), grown as labels need. */
let turnedScratch = new Float64Array(12 * 64);

function uniteOverlapping(clipper: Clipper, set: GlyphRings, g: Glyphs, sets: GlyphRings[]): GlyphRings {
  const n = sets.length;
  // Each glyph's box turned and moved: its corners, and the box of those (scratch, read only here).
  if (turnedScratch.length < n * 12) turnedScratch = new Float64Array(Math.max(n * 12, 2 * turnedScratch.length));
  const corners = turnedScratch;
  const aabb = turnedScratch.subarray(n * 8, n * 12);
  for (let i = 0; i < n; i++) {
    const [u0, v0, u1, v1] = sets[i]!.box;
    const t = turnedBox(g.x[i]!, g.y[i]!, g.cos ? g.cos[i]! : 1, g.sin ? g.sin[i]! : 0, u0, v0, u1, v1, corners, i * 8);
    aabb[i * 4] = t.x0;
    aabb[i * 4 + 1] = t.y0;
    aabb[i * 4 + 2] = t.x1;
    aabb[i * 4 + 3] = t.y1;
  }
  const groups = overlapGroups(n, (i, j) => {
    if (!sets[i]!.count || !sets[j]!.count) return false;
    if (!(aabb[i * 4]! < aabb[j * 4 + 2]! && aabb[j * 4]! < aabb[i * 4 + 2]! && aabb[i * 4 + 1]! < aabb[j * 4 + 3]! && aabb[j * 4 + 1]! < aabb[i * 4 + 3]!))
      return false;
    return turnedBoxesOverlap(corners, i, j, g);
  });
  if (groups.length === n) return set;
  let first = 0;
  const firstRing = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    firstRing[i] = first;
    first += sets[i]!.count;
  }
  firstRing[n] = first;
  const ring = (k: number) => set.coords.subarray(set.starts[k]!, set.starts[k + 1]!);
  // Packed as they come (packRings of the same rings: the same coordinates and boxes), the unions'
  // rings read straight from Clipper's memory.
  const out = new RingPacker();
  for (const grp of groups) {
    if (grp.length === 1) {
      for (let k = firstRing[grp[0]!]!; k < firstRing[grp[0]! + 1]!; k++) out.ringOf(set, k);
      continue;
    }
    const rings: Float64Array[] = [];
    for (const i of grp) for (let k = firstRing[i]!; k < firstRing[i + 1]!; k++) rings.push(ring(k));
    unionRingsTo(clipper, rings, out.add);
  }
  return out.done();
}

/**
 * Whether glyphs i and j's turned boxes (`corners`: 4 corners of each, in order) overlap: no axis
 * of either box (its glyph's direction and the normal to it) separates their corners (the
 * separating axis theorem for two rectangles).
 */
function turnedBoxesOverlap(corners: Float64Array, i: number, j: number, g: Glyphs): boolean {
  for (const q of [i, j]) {
    const co = g.cos ? g.cos[q]! : 1;
    const si = g.sin ? g.sin[q]! : 0;
    for (let axis = 0; axis < 2; axis++) {
      const ax = axis === 0 ? co : -si;
      const ay = axis === 0 ? si : co;
      let a0 = Infinity;
      let a1 = -Infinity;
      let b0 = Infinity;
      let b1 = -Infinity;
      for (let k = 0; k < 4; k++) {
        const pa = corners[i * 8 + k * 2]! * ax + corners[i * 8 + k * 2 + 1]! * ay;
        const pb = corners[j * 8 + k * 2]! * ax + corners[j * 8 + k * 2 + 1]! * ay;
        if (pa < a0) a0 = pa;
        if (pa > a1) a1 = pa;
        if (pb < b0) b0 = pb;
        if (pb > b1) b1 = pb;
      }
      if (!(a0 < b1 && b0 < a1)) return false;
    }
  }
  return true;
}
