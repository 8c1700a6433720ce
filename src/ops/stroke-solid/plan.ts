import type { RingSet } from '../../backends/cpu/rasterize.js';
import { hypot } from '../../geometry/hypot.js';
import { Stroker, type Cap, type Join, type StrokeStyle } from '../../geometry/stroke.js';
import { CUT_END, CUT_START, cutAxis } from '../../geometry/clip.js';
import type { Canvas, FeatureGroup, Features, RGBA } from '../../types.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../expr/paint.js';
import type { NodeSpec, OpContext } from '../types.js';

export function styleOf(node: NodeSpec): {
  join: Join;
  cap: Cap;
  miterLimit: number;
} {
  return {
    join: (node.join as Join | undefined) ?? 'miter',
    cap: (node.cap as Cap | undefined) ?? 'butt',
    miterLimit: typeof node['miter-limit'] === 'number' ? node['miter-limit'] : 2,
  };
}

/** A line end's key: its position on a 1/64 px grid. */
const endKey = (x: number, y: number) => `${Math.round(x * 64)},${Math.round(y * 64)}`;

/** How many line ends (not made by clipping) lie at each end position, over every group. */
function endCounts(features: Features): Map<string, number> {
  const m = new Map<string, number>();
  const add = (x: number, y: number) => {
    const k = endKey(x, y);
    m.set(k, (m.get(k) ?? 0) + 1);
  };
  for (const g of features.groups) {
    for (let i = 0; i < g.lines.length; i++) {
      const l = g.lines[i]!;
      const cut = g.cutEnds?.[i] ?? 0;
      if (l.length < 4) continue;
      if (!(cut & CUT_START)) add(l[0]!, l[1]!);
      if (!(cut & CUT_END)) add(l[l.length - 2]!, l[l.length - 1]!);
    }
  }
  return m;
}

/** Half a pixel: a seam pixel is then wholly covered by one of two ends meeting in it. */
const END_REACH = 0.5;

/** The line with each end that meets another line's end moved END_REACH further along its segment. */
function extendMeetingEnds(l: Float64Array, cut: number, meeting: Map<string, number>): Float64Array {
  const n = l.length;
  if (n < 4) return l;
  const shared = (x: number, y: number) => (meeting.get(endKey(x, y)) ?? 0) > 1;
  const start = !(cut & CUT_START) && shared(l[0]!, l[1]!);
  const end = !(cut & CUT_END) && shared(l[n - 2]!, l[n - 1]!);
  if (!start && !end) return l;
  const out = Float64Array.from(l);
  const push = (i: number, j: number) => {
    const dx = out[i]! - out[j]!;
    const dy = out[i + 1]! - out[j + 1]!;
    const d = hypot(dx, dy);
    if (!(d > 0)) return;
    out[i] = out[i]! + (dx / d) * END_REACH;
    out[i + 1] = out[i + 1]! + (dy / d) * END_REACH;
  };
  if (start) push(0, 2);
  if (end) push(n - 2, n - 4);
  return out;
}

/** Whether any line end or ring edge of the group was made by clipping. */
function hasCuts(g: FeatureGroup): boolean {
  if (g.cutEnds) for (let i = 0; i < g.cutEnds.length; i++) if (g.cutEnds[i] !== 0) return true;
  if (g.polygonCuts) for (const poly of g.polygonCuts) for (const cuts of poly) if (cuts) for (let i = 0; i < cuts.length; i++) if (cuts[i] !== 0) return true;
  return false;
}

/**
 * The box of the group's points (its lines and polygon rings) into `box` ([x0, y0, x1, y1]; NaN
 * coordinates left out); false when a coordinate is not finite. One pass for the reach tests and
 * the CPU kernel's cell box.
 */
function pointsBox(g: FeatureGroup, box: Float64Array): boolean {
  box[0] = box[1] = Infinity;
  box[2] = box[3] = -Infinity;
  let finite = true;
  for (const l of g.lines) finite = growFinite(l, box) && finite;
  for (const poly of g.polygons) for (const r of poly) finite = growFinite(r, box) && finite;
  return finite;
}

function growFinite(r: Float64Array, box: Float64Array): boolean {
  let x0 = box[0]!;
  let y0 = box[1]!;
  let x1 = box[2]!;
  let y1 = box[3]!;
  let finite = true;
  for (let i = 0; i + 1 < r.length; i += 2) {
    const x = r[i]!;
    const y = r[i + 1]!;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
    if (x - x !== 0 || y - y !== 0) finite = false;
  }
  box[0] = x0;
  box[1] = y0;
  box[2] = x1;
  box[3] = y1;
  return finite;
}

/** Whether the box of the group's points (pointsBox) grown by `reach` meets the canvas. */
function reaches(box: Float64Array, reach: number, canvas: Canvas): boolean {
  return (
    box[2]! + reach > canvas.x0 && box[0]! - reach < canvas.x0 + canvas.width && box[3]! + reach > canvas.y0 && box[1]! - reach < canvas.y0 + canvas.height
  );
}

/**
 * At least the reach of the band that squares a cut end of `line` to its cut line (Stroker.seam:
 * h (1 + |tan|) of the end segment against the cut line's normal), before stroking; NaN when it
 * is not known that way (an end segment under a pixel long or near parallel to the cut line,
 * where the stroker's dedupe or its own limit decides). The end point lies on its cut line.
 */
function seamBound(line: Float64Array, end: boolean, axis: number, h: number): number {
  const n = line.length;
  if (n < 4) return Number.NaN;
  const bx = end ? line[n - 2]! : line[0]!;
  const by = end ? line[n - 1]! : line[1]!;
  const dx = bx - (end ? line[n - 4]! : line[2]!);
  const dy = by - (end ? line[n - 3]! : line[3]!);
  const l = hypot(dx, dy);
  if (!(l >= 1 && l < Infinity && bx - bx === 0 && by - by === 0)) return Number.NaN;
  const cos = Math.abs(axis === 1 ? dx : dy) / l;
  if (!(cos >= 1 / 32)) return Number.NaN;
  return h * (1 + Math.sqrt(Math.max(0, 1 - cos * cos)) / cos + 0.01);
}

/**
 * A reach of the group's outline known before stroking it (a group with cut line ends: their
 * seam bands' bound), or NaN: ends on polygon cuts, join-ends, an end seamBound cannot bound.
 */
export function cutReach(g: FeatureGroup, w: number, miterLimit: number): number {
  if (g.polygonCuts)
    for (const poly of g.polygonCuts) for (const cuts of poly) if (cuts) for (let i = 0; i < cuts.length; i++) if (cuts[i] !== 0) return Number.NaN;
  const h = w / 2;
  let seam = 0;
  for (let i = 0; i < g.lines.length; i++) {
    const cut = g.cutEnds?.[i] ?? 0;
    for (const end of [false, true]) {
      const axis = cutAxis(cut, end);
      if (axis !== 0) seam = Math.max(seam, seamBound(g.lines[i]!, end, axis, h));
    }
  }
  return Math.max(h * Math.max(miterLimit, 1.5), seam) + 1;
}

/** A Stroker kept from the last call (kernels run one at a time), unless its buffers grew large. */
let spare: Stroker | undefined;
const SPARE_MAX_FLOATS = 1 << 20;

/**
 * The outline rings of every group that draws, with its premultiplied paint (opacity applied):
 * one source of truth for both backends. Ring edges made by clipping (polygonCuts) and line ends
 * made by clipping (cutEnds) are not stroked or capped; such an end on a known cut line (a source
 * tile's edge) ends exactly on that line (Stroker.line), so pieces from neighbouring source tiles
 * meet along the tile edge, also when they are separate groups painted one after the other.
 * `merged`: one ring per polyline (Stroker.merged, the same winding with fewer edges: the CPU
 * rasterizer) rather than convex pieces (the GPU's triangles).
 * `visit` also gets the group and `reach`: no outline point lies farther than that from a point of
 * the group's lines and rings (bounding boxes from the input points), or NaN when not known (offset).
 */
export function strokeOutlines(
  ctx: OpContext,
  visit: (rings: RingSet, paint: RGBA, group: FeatureGroup, reach: number, box: Float64Array) => void,
  merged = false,
): void {
  const features = ctx.input<'features'>('features') as Features;
  const { join, cap, miterLimit } = styleOf(ctx.node);
  const wmax = explicitMax(ctx, 'width');
  const width = groupNumber(ctx, 'width-expr', ctx.num('width', 1));
  const paint = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const offset = ctx.num('offset', 0);
  // Line ends shared by two lines (their keys counted), for join-ends; butt and square caps only.
  const meeting = ctx.bool('join-ends', false) && cap !== 'round' ? endCounts(features) : undefined;
  // A spare Stroker (its scratch and ring buffers) from the last call: kernels run one at a time.
  const stroker = spare ?? new Stroker();
  spare = undefined;
  stroker.merged = merged;
  // The CPU kernel's exact-area rasterizer: rings off the canvas's top, bottom or right side are
  // not built (Stroker.cull); the GPU's triangles take every piece.
  stroker.cull =
    merged && offset === 0 ? Float64Array.of(ctx.canvas.x0, ctx.canvas.y0, ctx.canvas.x0 + ctx.canvas.width, ctx.canvas.y0 + ctx.canvas.height) : null;
  // One style object, set again only when a group's width differs from the last one's.
  const style: StrokeStyle = { width: NaN, join, cap, miterLimit, offset };
  const rings = stroker.out;
  // The paint handed to visit: read it before visit returns (it is reused for the next group).
  const paintOut: RGBA = [0, 0, 0, 0];
  // The box of each group's points (pointsBox), handed to visit too: read it before visit returns.
  const box = new Float64Array(4);
  for (const g of features.groups) {
    if (!g.lines.length && !g.polygons.length) continue;
    const w = Math.min(width(g), wmax);
    if (!(w > 0)) continue;
    const c = paint(g);
    const a = clamp01(c[3] * clamp01(opacity(g)));
    if (!(a > 0)) continue;
    // A group whose outline cannot reach the canvas is not stroked: the features of a node read
    // by a wider consumer (a text node's margin) reach far beyond this canvas. Only with no
    // offset; a group with clipped ends or edges only where its seam bands' reach has a bound
    // before stroking (cutReach), else after (below).
    const finite = offset === 0 && pointsBox(g, box);
    if (offset === 0) {
      const before = hasCuts(g) ? (meeting ? Number.NaN : cutReach(g, w, miterLimit)) : (w / 2) * Math.max(miterLimit, 1.5) + 1;
      if (before >= 0 && !reaches(box, before, ctx.canvas)) continue;
    }
    rings.clear();
    if (w !== style.width) {
      style.width = w;
      stroker.setStyle(style);
    }
    stroker.seamReach = 0;
    for (let i = 0; i < g.lines.length; i++) {
      const cut = g.cutEnds?.[i] ?? 0;
      const line = meeting ? extendMeetingEnds(g.lines[i]!, cut, meeting) : g.lines[i]!;
      const beyond = g.cutBeyond;
      stroker.line(line, (cut & CUT_START) === 0, (cut & CUT_END) === 0, cutAxis(cut, false), cutAxis(cut, true), beyond?.[2 * i], beyond?.[2 * i + 1]);
    }
    for (let i = 0; i < g.polygons.length; i++) {
      const poly = g.polygons[i]!;
      const cuts = g.polygonCuts?.[i];
      for (let k = 0; k < poly.length; k++) stroker.ring(poly[k]!, cuts?.[k]);
    }
    paintOut[0] = c[0];
    paintOut[1] = c[1];
    paintOut[2] = c[2];
    paintOut[3] = a;
    // Half the width times the farthest an outline point gets from its vertex in half widths:
    // the miter limit (a miter tip), sqrt 2 (a square cap's corner) or 1; or the farthest a cut
    // end squared to its cut line reaches; plus a pixel for rounding.
    const reach = offset === 0 ? Math.max((w / 2) * Math.max(miterLimit, 1.5), stroker.seamReach) + 1 : Number.NaN;
    // A group with clipped ends or edges, now that its seam bands' reach is known: one whose
    // outline cannot reach the canvas draws nothing on it (the CPU kernel confines its cells to
    // the same box), so it is not rasterized.
    if (offset === 0 && !reaches(box, reach, ctx.canvas)) continue;
    // The CPU kernel's cell box: NaN when a coordinate is not finite (the whole canvas, as growBox).
    if (offset === 0 && !finite) box[0] = Number.NaN;
    visit(rings, paintOut, g, reach, box);
  }
  rings.clear();
  if (rings.coords.length <= SPARE_MAX_FLOATS) spare = stroker;
}
