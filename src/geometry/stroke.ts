// Stroke outlines of polylines and polygon rings, as a union of positively wound pieces:
// one quad per segment, one wedge per join (miter / bevel / round), one piece per cap (square /
// round). Every piece has positive shoelace area with y down (interior on the right of travel),
// so the nonzero union of the pieces (Rasterizer) is the stroke; edges shared by neighbouring
// pieces run in opposite directions and cancel exactly, so no seam shows inside a stroke.
//
// Coordinates are whatever the input uses (the ops pass world pixels, the rasterizer shifts them
// to the canvas); the output rings use the same units. Directions follow the screen: x east,
// y south, "right of the direction of travel" is (-dy, dx).

import { hypot } from './hypot.js';
import type { RingSet } from '../backends/cpu/rasterize.js';

export type Join = 'miter' | 'round' | 'bevel';
export type Cap = 'butt' | 'round' | 'square';

export interface StrokeStyle {
  /** Full line width (pixels). */
  width: number;
  join: Join;
  cap: Cap;
  /** Miter length / width above which a miter join becomes a bevel (SVG's stroke-miterlimit). */
  miterLimit: number;
  /** Shift of the line to the right of its direction of travel (pixels). */
  offset: number;
}

/** Largest gap between a round join/cap arc and its polygon, in pixels. */
const ARC_TOLERANCE = 0.01;
/** Consecutive points closer than this are one point (their direction would be noise). */
const SAME_POINT = 1e-6;
/**
 * A cut end is squared to its cut line only when the line crosses it at least this steeply (the
 * cosine of the angle between the line and the cut line's normal): nearer parallel, the squared
 * end would run along the cut line for more than 64 half widths.
 */
const MIN_SEAM_COS = 1 / 64;

/** The cut line through a line end (FeatureGroup.cutEnds, src/geometry/clip.ts cutAxis): 0 none, 1 x = the end's x, 2 y = the end's y. */
export type CutAxis = 0 | 1 | 2;

/** A copy of `a` in an array twice its length. */
function doubled(a: Float64Array): Float64Array<ArrayBuffer> {
  const c = new Float64Array(a.length * 2);
  c.set(a);
  return c;
}

/** A growable flat buffer of rings; implements RingSet for the rasterizer. */
export class RingBuffer implements RingSet {
  coords = new Float64Array(1024);
  starts = new Int32Array(65);
  count = 0;
  private n = 0;

  clear(): void {
    this.count = 0;
    this.n = 0;
    this.starts[0] = 0;
  }

  /**
   * Append a point. Kept this small (the growth in grow()) so that TurboFan inlines it at every
   * call site of the Stroker's large methods within its inlining budget: a call it does not inline
   * boxes both doubles in heap numbers.
   */
  push(x: number, y: number): void {
    const n = this.n;
    const c = n + 2 > this.coords.length ? this.grow() : this.coords;
    c[n] = x;
    c[n + 1] = y;
    this.n = n + 2;
  }

  private grow(): Float64Array {
    this.coords = doubled(this.coords);
    return this.coords;
  }

  /** End the ring started after the previous one; rings of fewer than 3 points are dropped. */
  close(): void {
    const start = this.starts[this.count]!;
    if (this.n - start < 6) {
      this.n = start;
      return;
    }
    if (this.count + 2 > this.starts.length) {
      const s = new Int32Array(this.starts.length * 2);
      s.set(this.starts);
      this.starts = s;
    }
    this.starts[++this.count] = this.n;
  }

  /** Ring k as a copy (tests and debugging). */
  ring(k: number): Float64Array {
    return this.coords.slice(this.starts[k]!, this.starts[k + 1]!);
  }
}

/**
 * Builds stroke pieces into a RingBuffer. Holds scratch arrays reused across calls; make one per
 * op call (not shared between concurrent renders).
 */
export class Stroker {
  readonly out: RingBuffer;
  private pts = new Float64Array(256);
  /** Original vertex index of each deduped point. */
  private src = new Int32Array(128);
  private off = new Float64Array(256);
  private run = new Float64Array(256);
  private h = 0.5;
  private style: StrokeStyle = { width: 1, join: 'miter', cap: 'butt', miterLimit: 2, offset: 0 };
  private arcStep = Math.PI / 4;
  /**
   * A join whose directions' dot product exceeds this turns by less than arcStep (with 1e-6 of
   * it to spare, far above acos's rounding): its arc has no interior point (arc()'s k <= 1), so
   * neither acos nor atan2 is taken for it.
   */
  private noArcDot = Math.cos((Math.PI / 4) * (1 - 1e-6));
  /**
   * A round cap's interior points as unit vectors from its start direction: (cos, sin) of i times
   * the cap's step (pi in arc()'s number of steps), i = 1 .. k - 1, interleaved; set with the width.
   */
  private capTurns = new Float64Array(0);
  /** The arc step capTurns was made for. */
  private capStep = Number.NaN;
  /** The right side of a merged outline, in travel order (pushed reversed when the ring closes). */
  private right = new Float64Array(256);
  private rn = 0;
  /**
   * Merged outlines: each polyline (and each side of a closed ring) as one ring, where the pieces
   * (quads, join wedges) would give several. The pieces' edges shared at a vertex cancel; what
   * remains is the same signed winding everywhere, so an exact-area (or any additive winding)
   * rasterizer gives the same coverage with about a third fewer, and longer, edges. The rings
   * are not convex (the inner side of a join runs through the vertex), so a consumer that
   * triangulates convex pieces wants the pieces (the default).
   */
  merged = false;
  /**
   * How far the rings that square cut ends to their cut lines (seam()) reach from their end
   * points, at most, since it was last set to 0 (the ends' band runs up to width / 2 / cos from the
   * end, farther than the stroke's own outline reaches when the line crosses the cut slantwise).
   */
  seamReach = 0;
  /** line()'s startBeyond / endBeyond for the line being stroked (seam()). */
  private startBeyond = Infinity;
  private endBeyond = Infinity;
  /** Scratch polygons of seam(): a quad clipped by two lines has at most 6 points. */
  private seamPoly = new Float64Array(16);
  private seamTmp = new Float64Array(16);
  /**
   * The numbers vertex(), arc() and cap() take, passed here rather than as arguments:
   * those methods are too large for TurboFan to inline, and a call with doubles boxes each in a
   * heap number (outline's vertex calls alone were a twentieth of what a toner tile allocated).
   * vertex: [vx, vy, n1x, n1y, n2x, n2y, u1x, u1y, u2x, u2y]; arc: [cx, cy, a0, sweep, r]; cap:
   * [x, y, ux, uy]. Each method reads its numbers before it calls another.
   */
  private readonly va = new Float64Array(10);
  private readonly aa = new Float64Array(5);
  private readonly ca = new Float64Array(4);
  /**
   * The canvas the rings are for ([x0, y0, x1, y1], the rings' units), when the consumer draws
   * with the exact-area rasterizer: a ring wholly above, below or right of it changes no cell the
   * canvas shows (Rasterizer.addRing passes over every edge of it), so a whole uncut line, or a
   * cap, that lies there (by more than a pixel) is not built. Left of the canvas a ring adds to
   * its rows' first cells, so those are built. Null: every ring is built.
   */
  cull: Float64Array | null = null;

  constructor(out = new RingBuffer()) {
    this.out = out;
  }

  /** Set the style for the following lines and rings. */
  setStyle(style: StrokeStyle): void {
    this.style = style;
    this.h = style.width / 2;
    // Chord angle whose sagitta on radius h is ARC_TOLERANCE.
    this.arcStep = this.h > ARC_TOLERANCE ? Math.min(Math.PI / 4, 2 * Math.acos(1 - ARC_TOLERANCE / this.h)) : Math.PI / 4;
    this.noArcDot = Math.cos(this.arcStep * (1 - 1e-6));
  }

  /** capTurns for the arc step now (arc()'s k and step for a sweep of pi). */
  private turnsOfCap(): Float64Array {
    if (this.capStep === this.arcStep) return this.capTurns;
    const k = Math.ceil(Math.PI / this.arcStep - 1e-9);
    const step = Math.PI / k;
    const t = new Float64Array(2 * Math.max(0, k - 1));
    for (let i = 1; i < k; i++) {
      t[2 * i - 2] = Math.cos(step * i);
      t[2 * i - 1] = Math.sin(step * i);
    }
    this.capStep = this.arcStep;
    this.capTurns = t;
    return t;
  }

  /**
   * Stroke an open polyline (flat coords). `capStart` / `capEnd` false leaves that end with no
   * cap: an end made by tile clipping. Such an end with a cut line (`startCut` / `endCut`: the
   * vertical or horizontal line through the end point, the edge of the tile the piece was clipped
   * to) ends exactly on that line instead of square to the line (seam()), so the neighbouring
   * tile's piece, ended the same way on the same line, meets it along that line; without one it
   * ends butt (square), which also abuts the neighbour's butt end exactly. `startBeyond` /
   * `endBeyond` (FeatureGroup.cutBeyond): how far the line runs on past that cut in the
   * neighbouring piece, which bounds how far along the line the end is squared (seam()).
   */
  line(
    coords: ArrayLike<number>,
    capStart = true,
    capEnd = true,
    startCut: CutAxis = 0,
    endCut: CutAxis = 0,
    startBeyond = Infinity,
    endBeyond = Infinity,
  ): void {
    if (!(this.h > 0)) return;
    this.startBeyond = startBeyond;
    this.endBeyond = endBeyond;
    const n = this.dedupe(coords, 0, coords.length, false);
    if (n < 2) return;
    // An uncut line whose outline and caps (within the miter limit or 1.5 half widths of its
    // points) lie wholly off the canvas's top, bottom or right side: nothing to build. A cap
    // (within 1.5 half widths of its end: a square cap's corner is sqrt 2 of them) likewise.
    if (this.cull && capStart && capEnd && this.style.offset === 0 && this.culled(this.pts, 0, n, Math.max(this.style.miterLimit, 1.5))) return;
    this.strokeOpen(this.pts, n, capStart, capEnd, capStart ? 0 : startCut, capEnd ? 0 : endCut);
  }

  /**
   * Stroke a closed ring (flat coords, with or without a repeated first point), joined all round.
   * `cuts` flags edges (vertex i to i + 1, wrapping) made by clipping, as in
   * FeatureGroup.polygonCuts: they are not stroked, and the ends they leave get no cap and end on
   * the cut edge's line when that edge is vertical or horizontal (as line()'s cut ends), so the
   * pieces of a polygon split between tiles meet like one outline.
   */
  ring(coords: ArrayLike<number>, cuts?: ArrayLike<number>): void {
    if (!(this.h > 0)) return;
    this.startBeyond = this.endBeyond = Infinity;
    const n = this.dedupe(coords, 0, coords.length, true);
    if (n < 2) return;
    const p = this.pts;
    let firstCut = -1;
    if (cuts) {
      for (let k = 0; k < n; k++) {
        if (this.isCut(cuts, k)) {
          firstCut = k;
          break;
        }
      }
    }
    if (firstCut < 0) {
      this.strokeClosed(p, n);
      return;
    }
    // Open runs between cut edges, starting at the end of the first one; the loop ends on that
    // cut edge again, which flushes the last run.
    this.ensureRun(2 * (n + 1));
    const run = this.run;
    const start = (firstCut + 1) % n;
    run[0] = p[start * 2]!;
    run[1] = p[start * 2 + 1]!;
    let m = 2;
    // The cut line the current run starts on.
    let from = edgeAxis(p, firstCut, n);
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const j = (i + 1) % n;
      if (this.isCut(cuts!, i)) {
        const to = edgeAxis(p, i, n);
        if (m >= 4) this.strokeOpen(run, m >> 1, false, false, from, to);
        from = to;
        m = 0;
      }
      run[m++] = p[j * 2]!;
      run[m++] = p[j * 2 + 1]!;
    }
  }

  // --- internals -------------------------------------------------------------------------

  /**
   * Whether every point of p[from .. from + n) grown by r = the half width times `f` (plus a pixel
   * for rounding) lies above, below or right of `cull`, where no ring drawn there reaches a cell
   * of the canvas. (A start index, not a subarray; r made here, not passed: nothing allocated.)
   */
  private culled(p: Float64Array, from: number, n: number, f: number): boolean {
    const c = this.cull!;
    const r = this.h * f;
    let x0 = Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (let i = from; i < from + n; i++) {
      const x = p[i * 2]!;
      const y = p[i * 2 + 1]!;
      if (x < x0) x0 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const m = r + 1;
    return y1 + m < c[1]! || y0 - m > c[3]! || x0 - m > c[2]!;
  }

  /** Deduped edge k starts at original vertex src[k] (the last of a run of repeats). */
  private isCut(cuts: ArrayLike<number>, k: number): boolean {
    return cuts[this.src[k]!] === 1;
  }

  /** Copy points into `pts` without repeats (and without the closing point of a ring). */
  private dedupe(c: ArrayLike<number>, from: number, to: number, closed: boolean): number {
    const cap = to - from;
    if (this.pts.length < cap) {
      this.pts = new Float64Array(cap * 2);
      this.src = new Int32Array(cap);
    }
    const p = this.pts;
    const src = this.src;
    let n = 0;
    for (let i = from; i + 1 < to; i += 2) {
      const x = c[i]!;
      const y = c[i + 1]!;
      if (!(Number.isFinite(x) && Number.isFinite(y))) continue;
      if (n > 0 && Math.abs(x - p[n * 2 - 2]!) <= SAME_POINT && Math.abs(y - p[n * 2 - 1]!) <= SAME_POINT) {
        src[n - 1] = (i - from) >> 1;
        continue;
      }
      p[n * 2] = x;
      p[n * 2 + 1] = y;
      src[n] = (i - from) >> 1;
      n++;
    }
    if (closed) {
      while (n > 1 && Math.abs(p[0]! - p[n * 2 - 2]!) <= SAME_POINT && Math.abs(p[1]! - p[n * 2 - 1]!) <= SAME_POINT) n--;
    }
    return n;
  }

  private ensureRun(len: number): void {
    if (this.run.length < len) this.run = new Float64Array(len * 2);
  }

  /**
   * The offset curve of n points. Each vertex moves by offset along the miter of its two normals
   * (where the offset lines meet). On the outer side of a turn, a miter longer than the miter
   * limit becomes two points (offset along each normal); on the inner side the meeting point is
   * kept while it lies within both segments. Writes into `off`; returns its point count.
   */
  private offsetCurve(p: Float64Array, n: number, closed: boolean): number {
    const o = this.style.offset;
    const limit2 = this.style.miterLimit * this.style.miterLimit;
    if (this.off.length < n * 4) this.off = new Float64Array(n * 8);
    const q = this.off;
    let m = 0;
    for (let i = 0; i < n; i++) {
      const x = p[i * 2]!;
      const y = p[i * 2 + 1]!;
      const hasPrev = closed || i > 0;
      const hasNext = closed || i < n - 1;
      const ip = (i + n - 1) % n;
      const inx = (i + 1) % n;
      let n1x = 0;
      let n1y = 0;
      let n2x = 0;
      let n2y = 0;
      let l1 = Infinity;
      let l2 = Infinity;
      if (hasPrev) {
        const dx = x - p[ip * 2]!;
        const dy = y - p[ip * 2 + 1]!;
        l1 = hypot(dx, dy);
        n1x = -dy / l1;
        n1y = dx / l1;
      }
      if (hasNext) {
        const dx = p[inx * 2]! - x;
        const dy = p[inx * 2 + 1]! - y;
        l2 = hypot(dx, dy);
        n2x = -dy / l2;
        n2y = dx / l2;
      }
      if (!hasPrev) {
        n1x = n2x;
        n1y = n2y;
      }
      if (!hasNext) {
        n2x = n1x;
        n2y = n1y;
      }
      const dot = n1x * n2x + n1y * n2y;
      const cross = n1x * n2y - n1y * n2x; // > 0: a right turn
      let miter: boolean;
      if (!(1 + dot > 1e-12)) miter = false;
      else if (cross * o > 0) {
        // Inner side: the offset lines meet |o| tan(turn / 2) from the vertex along each segment.
        miter = Math.abs(o * cross) / (1 + dot) <= Math.min(l1, l2);
      } else miter = 2 / (1 + dot) <= limit2; // |miter|^2 = 2 / (1 + cos(turn))
      if (miter) {
        const k = o / (1 + dot);
        q[m++] = x + (n1x + n2x) * k;
        q[m++] = y + (n1y + n2y) * k;
      } else {
        q[m++] = x + n1x * o;
        q[m++] = y + n1y * o;
        q[m++] = x + n2x * o;
        q[m++] = y + n2y * o;
      }
    }
    return this.dedupeInPlace(q, m >> 1, closed);
  }

  private dedupeInPlace(q: Float64Array, n: number, closed: boolean): number {
    let k = 0;
    for (let i = 0; i < n; i++) {
      const x = q[i * 2]!;
      const y = q[i * 2 + 1]!;
      if (k > 0 && Math.abs(x - q[k * 2 - 2]!) <= SAME_POINT && Math.abs(y - q[k * 2 - 1]!) <= SAME_POINT) continue;
      q[k * 2] = x;
      q[k * 2 + 1] = y;
      k++;
    }
    if (closed) {
      while (k > 1 && Math.abs(q[0]! - q[k * 2 - 2]!) <= SAME_POINT && Math.abs(q[1]! - q[k * 2 - 1]!) <= SAME_POINT) k--;
    }
    return k;
  }

  /** `startCut` / `endCut`: the cut line through that end (line()); only for uncapped ends. */
  private strokeOpen(p: Float64Array, n: number, capStart: boolean, capEnd: boolean, startCut: CutAxis = 0, endCut: CutAxis = 0): void {
    // The cut lines' coordinates: through the end points before any offset.
    const k0 = startCut === 1 ? p[0]! : p[1]!;
    const k1 = endCut === 1 ? p[n * 2 - 2]! : p[n * 2 - 1]!;
    if (this.style.offset !== 0) {
      n = this.offsetCurve(p, n, false);
      p = this.off;
      if (n < 2) return;
    }
    if (this.merged && n > 2) this.outline(p, n, false);
    else {
      for (let i = 0; i < n - 1; i++) this.quad(p, i, i + 1);
      for (let i = 1; i < n - 1; i++) this.join(p, i - 1, i, i + 1);
    }
    // The end first: when both ends lie on one segment, the start's overhang is then taken from
    // what is left of the segment's quad on the end's side.
    if (endCut !== 0) this.seam(p, n - 2, n - 1, endCut, k1, 0, 0, this.endBeyond);
    if (startCut !== 0) this.seam(p, 1, 0, startCut, k0, n === 2 ? endCut : 0, k1, this.startBeyond);
    const cap = this.style.cap;
    if (cap === 'butt') return;
    const ca = this.ca;
    if (capStart && !(this.cull && this.culled(p, 0, 1, 1.5))) {
      // The unit direction from point 1 to point 0 (that of 0 -> 1, negated).
      const dx = p[2]! - p[0]!;
      const dy = p[3]! - p[1]!;
      const l = hypot(dx, dy);
      ca[0] = p[0]!;
      ca[1] = p[1]!;
      ca[2] = -(dx / l);
      ca[3] = -(dy / l);
      this.cap(cap);
    }
    if (capEnd && !(this.cull && this.culled(p, n - 1, 1, 1.5))) {
      const dx = p[n * 2 - 2]! - p[n * 2 - 4]!;
      const dy = p[n * 2 - 1]! - p[n * 2 - 3]!;
      const l = hypot(dx, dy);
      ca[0] = p[n * 2 - 2]!;
      ca[1] = p[n * 2 - 1]!;
      ca[2] = dx / l;
      ca[3] = dy / l;
      this.cap(cap);
    }
  }

  /**
   * Square the end b of segment a -> b (the last one, or the first one reversed, of the curve as
   * stroked: the offset curve when there is an offset) to the cut line through it (`axis`: x = k
   * or y = k), so the stroke ends exactly on that line: one more positive ring, the part of the
   * segment's band beyond the butt end up to the cut line on the piece's side (the triangle the
   * butt leaves out, or for an offset end off the line, the band up to the line), and one negative
   * ring, the part of the segment's quad beyond the cut line (where the neighbouring piece
   * draws). Both are convex, so both outputs (merged or pieces) take them as they are, and the
   * negative one lies inside the quad, so the winding stays >= 0. `otherAxis` / `otherK`: the cut
   * line of the segment's other end when it is cut too (a two-point curve), whose overhang was
   * already taken: the overhang here is taken from what is on that line's near side. `beyond`:
   * how far the neighbouring piece's segment runs on past the cut (its quad's overhang onto this
   * side, which it takes away, reaches no farther), which bounds the band: without it a line
   * crossing the cut line at a glancing angle squares its end along the line far past where the
   * neighbour's segment ends (a road ending 30 px past a tile edge drew 148 px of halo there).
   */
  private seam(p: Float64Array, a: number, b: number, axis: CutAxis, k: number, otherAxis: CutAxis, otherK: number, beyond: number): void {
    const ax = p[a * 2]!;
    const ay = p[a * 2 + 1]!;
    const bx = p[b * 2]!;
    const by = p[b * 2 + 1]!;
    const l = hypot(bx - ax, by - ay);
    if (!(l > 0)) return;
    const ux = (bx - ax) / l;
    const uy = (by - ay) / l;
    // Across the cut line, and its sign: the outward direction crosses to the far side.
    const cos = axis === 1 ? ux : uy;
    if (!(Math.abs(cos) >= MIN_SEAM_COS)) return;
    const sx = axis === 1 ? Math.sign(cos) : 0;
    const sy = axis === 1 ? 0 : Math.sign(cos);
    const h = this.h;
    const nx = -uy * h;
    const ny = ux * h;
    // Distance beyond the cut line of the butt corners (negative: on the piece's side).
    const f1 = (bx - nx - (axis === 1 ? k : 0)) * sx + (by - ny - (axis === 1 ? 0 : k)) * sy;
    const f2 = (bx + nx - (axis === 1 ? k : 0)) * sx + (by + ny - (axis === 1 ? 0 : k)) * sy;
    const gap = -Math.min(f1, f2) / Math.abs(cos);
    const s = this.seamPoly;
    if (gap > 1e-9 && beyond > 0) {
      // The band from the butt on, long enough to pass the cut line (or as far as the neighbour's
      // segment runs), clipped to the near side.
      const L = Math.min(gap + h, beyond);
      s[0] = bx - nx;
      s[1] = by - ny;
      s[2] = bx - nx + ux * L;
      s[3] = by - ny + uy * L;
      s[4] = bx + nx + ux * L;
      s[5] = by + ny + uy * L;
      s[6] = bx + nx;
      s[7] = by + ny;
      this.pushClipped(s, 4, axis, k, -sx, -sy, 1, 0, 0, 0, 0);
      this.seamReach = Math.max(this.seamReach, h + gap);
    }
    if (Math.max(f1, f2) > 1e-9) {
      // The quad's part beyond the cut line, negatively (on the other cut's near side, if any).
      s[0] = ax - nx;
      s[1] = ay - ny;
      s[2] = bx - nx;
      s[3] = by - ny;
      s[4] = bx + nx;
      s[5] = by + ny;
      s[6] = ax + nx;
      s[7] = ay + ny;
      // The other end's far side is the one its outward direction (-u) crosses to.
      const ocos = otherAxis === 1 ? -ux : -uy;
      const osx = otherAxis === 1 ? -Math.sign(ocos) : 0;
      const osy = otherAxis === 2 ? -Math.sign(ocos) : 0;
      this.pushClipped(s, 4, axis, k, sx, sy, -1, otherAxis, otherK, osx, osy);
    }
  }

  /**
   * Clip the convex polygon `s` (m points) to the half-plane where (x, y) - (k on `axis`) has a
   * non-negative dot product with (dx, dy), and, when `axis2` is set, the same for the second line;
   * push it (reversed when `sign` < 0) as one ring.
   */
  private pushClipped(
    s: Float64Array,
    m: number,
    axis: CutAxis,
    k: number,
    dx: number,
    dy: number,
    sign: number,
    axis2: CutAxis,
    k2: number,
    dx2: number,
    dy2: number,
  ): void {
    let n = clipHalf(s, m, this.seamTmp, axis === 1 ? k : 0, axis === 1 ? 0 : k, dx, dy);
    let src: Float64Array = this.seamTmp;
    if (axis2 !== 0 && (dx2 !== 0 || dy2 !== 0)) {
      n = clipHalf(src, n, s, axis2 === 1 ? k2 : 0, axis2 === 1 ? 0 : k2, dx2, dy2);
      src = s;
    }
    if (n < 3) return;
    const o = this.out;
    if (sign > 0) for (let i = 0; i < n; i++) o.push(src[i * 2]!, src[i * 2 + 1]!);
    else for (let i = n - 1; i >= 0; i--) o.push(src[i * 2]!, src[i * 2 + 1]!);
    o.close();
  }

  private strokeClosed(p: Float64Array, n: number): void {
    if (this.style.offset !== 0) {
      n = this.offsetCurve(p, n, true);
      p = this.off;
    }
    if (n < 2) return;
    if (this.merged && n > 2) {
      this.outline(p, n, true);
      return;
    }
    for (let i = 0; i < n; i++) this.quad(p, i, (i + 1) % n);
    if (n < 3) return;
    for (let i = 0; i < n; i++) this.join(p, (i + n - 1) % n, i, (i + 1) % n);
  }

  /**
   * The merged outline of n >= 3 points: the quads' and the wedges' edges without those that
   * cancel. Open: one ring, the left side (-normal) forward then the right side back. Closed:
   * the left side and the reversed right side as two rings. At each vertex the outer side of the
   * turn follows the wedge (first point, miter tip or arc, last point) and the inner side runs
   * through the vertex (what is left of the two quads' ends there).
   */
  private outline(p: Float64Array, n: number, closed: boolean): void {
    const o = this.out;
    const h = this.h;
    if (this.right.length < n * 8) this.right = new Float64Array(n * 16);
    this.rn = 0;
    const segs = closed ? n : n - 1;
    // Normal (scaled by h) of the segment before the current vertex.
    let pnx = 0;
    let pny = 0;
    // Unit direction of that segment.
    let pux = 0;
    let puy = 0;
    for (let i = closed ? -1 : 0; i < segs; i++) {
      const a = (i + n) % n;
      const b = (i + 1) % n;
      const ax = p[a * 2]!;
      const ay = p[a * 2 + 1]!;
      const dx = p[b * 2]! - ax;
      const dy = p[b * 2 + 1]! - ay;
      const l = Math.sqrt(dx * dx + dy * dy); // pixel coordinates: no overflow for hypot to guard
      const ux = dx / l;
      const uy = dy / l;
      // (-dy / l) is exactly -(dy / l): the normal is (-uy, ux) * h.
      const nx = -uy * h;
      const ny = ux * h;
      if (i < 0) {
        // Closed: the segment into vertex 0, only for its normal.
        pnx = nx;
        pny = ny;
        pux = ux;
        puy = uy;
        continue;
      }
      if (i === 0 && !closed) {
        o.push(ax - nx, ay - ny);
        this.pushRight(ax + nx, ay + ny);
      } else {
        const va = this.va;
        va[0] = ax;
        va[1] = ay;
        va[2] = pnx;
        va[3] = pny;
        va[4] = nx;
        va[5] = ny;
        va[6] = pux;
        va[7] = puy;
        va[8] = ux;
        va[9] = uy;
        this.vertex();
      }
      pnx = nx;
      pny = ny;
      pux = ux;
      puy = uy;
    }
    const r = this.right;
    if (!closed) {
      const ex = p[n * 2 - 2]!;
      const ey = p[n * 2 - 1]!;
      o.push(ex - pnx, ey - pny);
      this.pushRight(ex + pnx, ey + pny);
      for (let k = this.rn - 2; k >= 0; k -= 2) o.push(r[k]!, r[k + 1]!);
      o.close();
      return;
    }
    o.close();
    for (let k = this.rn - 2; k >= 0; k -= 2) o.push(r[k]!, r[k + 1]!);
    o.close();
  }

  /** RingBuffer.push's shape for the right side (small, so that it is inlined: see there). */
  private pushRight(x: number, y: number): void {
    const n = this.rn;
    const c = n + 2 > this.right.length ? this.growRight() : this.right;
    c[n] = x;
    c[n + 1] = y;
    this.rn = n + 2;
  }

  private growRight(): Float64Array {
    this.right = doubled(this.right);
    return this.right;
  }

  /**
   * One vertex (vx, vy) of a merged outline, its numbers in `va`: (n1x, n1y) and (n2x, n2y) are the
   * scaled normals of the segments into and out of it, (u1x, u1y) and (u2x, u2y) their unit
   * directions. As join(): the same wedge, less its edges to the vertex, which cancel the quads' ends.
   */
  private vertex(): void {
    const va = this.va;
    const vx = va[0]!;
    const vy = va[1]!;
    const n1x = va[2]!;
    const n1y = va[3]!;
    const n2x = va[4]!;
    const n2y = va[5]!;
    const u1x = va[6]!;
    const u1y = va[7]!;
    const u2x = va[8]!;
    const u2y = va[9]!;
    const o = this.out;
    const cross = u1x * u2y - u1y * u2x;
    const dot = u1x * u2x + u1y * u2y;
    const join = this.style.join;
    if (Math.abs(cross) < 1e-12 && dot > 0) {
      // Straight on: the quads' ends (all but) coincide.
      o.push(vx - n1x, vy - n1y);
      if (n1x !== n2x || n1y !== n2y) o.push(vx - n2x, vy - n2y);
      this.pushRight(vx + n1x, vy + n1y);
      if (n1x !== n2x || n1y !== n2y) this.pushRight(vx + n2x, vy + n2y);
      return;
    }
    const h = this.h;
    const s = cross >= 0 ? -1 : 1;
    const wedge = join === 'round' || Math.abs(cross) >= 1e-12;
    // The inner side (both sides at a reversal without a wedge) through the vertex.
    if (s > 0 || !wedge) {
      o.push(vx - n1x, vy - n1y);
      o.push(vx, vy);
      o.push(vx - n2x, vy - n2y);
    }
    if (s < 0 || !wedge) {
      this.pushRight(vx + n1x, vy + n1y);
      this.pushRight(vx, vy);
      this.pushRight(vx + n2x, vy + n2y);
    }
    if (!wedge) return;
    // The outer side: the wedge from its first point to its last, as join() builds it.
    const ax = vx + s * -u1y * h;
    const ay = vy + s * u1x * h;
    const bx = vx + s * -u2y * h;
    const by = vy + s * u2x * h;
    if (s < 0) {
      // Left side, in travel order: A, [tip | arc], B.
      o.push(ax, ay);
      if (join === 'round') {
        if (!(dot > this.noArcDot)) this.arcArgs(vx, vy, Math.atan2(ay - vy, ax - vx), Math.acos(Math.max(-1, Math.min(1, dot))), h).arc();
      } else if (join === 'miter') this.miterTip(s, false);
      o.push(bx, by);
      return;
    }
    // Right side, in travel order A, [tip | arc reversed], B: it is pushed back to front.
    this.pushRight(ax, ay);
    if (join === 'round') {
      if (!(dot > this.noArcDot)) this.arcArgs(vx, vy, Math.atan2(by - vy, bx - vx), Math.acos(Math.max(-1, Math.min(1, dot))), h).arc(true);
    } else if (join === 'miter') this.miterTip(s, true);
    this.pushRight(bx, by);
  }

  /** The miter tip of join(), when within the limit, onto the left side or the right one. */
  private miterTip(s: number, right: boolean): void {
    // vertex()'s numbers, still in `va`.
    const va = this.va;
    const vx = va[0]!;
    const vy = va[1]!;
    const u1x = va[6]!;
    const u1y = va[7]!;
    const u2x = va[8]!;
    const u2y = va[9]!;
    const n1x = -u1y;
    const n1y = u1x;
    const n2x = -u2y;
    const n2y = u2x;
    const nd = n1x * n2x + n1y * n2y;
    const limit = this.style.miterLimit;
    if (2 / (1 + nd) <= limit * limit) {
      const k = (s * this.h) / (1 + nd);
      if (right) this.pushRight(vx + (n1x + n2x) * k, vy + (n1y + n2y) * k);
      else this.out.push(vx + (n1x + n2x) * k, vy + (n1y + n2y) * k);
    }
  }

  /** Set arc()'s numbers (a small method: TurboFan inlines it, with no boxing). */
  private arcArgs(cx: number, cy: number, a0: number, sweep: number, r: number): this {
    const aa = this.aa;
    aa[0] = cx;
    aa[1] = cy;
    aa[2] = a0;
    aa[3] = sweep;
    aa[4] = r;
    return this;
  }

  /** Segment a -> b: left side forward, right side back (interior on the right of travel). */
  private quad(p: Float64Array, a: number, b: number): void {
    const ax = p[a * 2]!;
    const ay = p[a * 2 + 1]!;
    const bx = p[b * 2]!;
    const by = p[b * 2 + 1]!;
    const l = hypot(bx - ax, by - ay);
    if (!(l > 0)) return;
    const nx = (-(by - ay) / l) * this.h;
    const ny = ((bx - ax) / l) * this.h;
    const o = this.out;
    o.push(ax - nx, ay - ny);
    o.push(bx - nx, by - ny);
    o.push(bx + nx, by + ny);
    o.push(ax + nx, ay + ny);
    o.close();
  }

  /** The wedge filling the outer side of the turn at vertex v between segments a->v and v->b. */
  private join(p: Float64Array, a: number, v: number, b: number): void {
    const vx = p[v * 2]!;
    const vy = p[v * 2 + 1]!;
    let u1x = vx - p[a * 2]!;
    let u1y = vy - p[a * 2 + 1]!;
    let u2x = p[b * 2]! - vx;
    let u2y = p[b * 2 + 1]! - vy;
    const l1 = hypot(u1x, u1y);
    const l2 = hypot(u2x, u2y);
    if (!(l1 > 0 && l2 > 0)) return;
    u1x /= l1;
    u1y /= l1;
    u2x /= l2;
    u2y /= l2;
    const cross = u1x * u2y - u1y * u2x;
    const dot = u1x * u2x + u1y * u2y;
    if (Math.abs(cross) < 1e-12 && dot > 0) return; // straight on: the quads already meet
    const h = this.h;
    // Right turn on screen (cross > 0): the outer side is the left one (-normal).
    const s = cross >= 0 ? -1 : 1;
    const ax = vx + s * -u1y * h;
    const ay = vy + s * u1x * h;
    const bx = vx + s * -u2y * h;
    const by = vy + s * u2x * h;
    // Wedge: v, first, [tip | arc], last, walking with increasing screen angle (positive area).
    const fx = s < 0 ? ax : bx;
    const fy = s < 0 ? ay : by;
    const lx = s < 0 ? bx : ax;
    const ly = s < 0 ? by : ay;
    const o = this.out;
    const join = this.style.join;
    if (join === 'round') {
      o.push(vx, vy);
      o.push(fx, fy);
      if (!(dot > this.noArcDot)) this.arcArgs(vx, vy, Math.atan2(fy - vy, fx - vx), Math.acos(Math.max(-1, Math.min(1, dot))), h).arc();
      o.push(lx, ly);
      o.close();
      return;
    }
    if (Math.abs(cross) < 1e-12) return; // reversal: a bevel has no area, a miter is infinite
    o.push(vx, vy);
    o.push(fx, fy);
    if (join === 'miter') {
      // Miter length / width = 1 / cos(turn / 2) = sqrt(2 / (1 + cos(turn))).
      const n1x = -u1y;
      const n1y = u1x;
      const n2x = -u2y;
      const n2y = u2x;
      const nd = n1x * n2x + n1y * n2y;
      const limit = this.style.miterLimit;
      if (2 / (1 + nd) <= limit * limit) {
        const k = (s * h) / (1 + nd);
        o.push(vx + (n1x + n2x) * k, vy + (n1y + n2y) * k);
      }
    }
    o.push(lx, ly);
    o.close();
  }

  /** Cap at end point (x, y) of a line heading (ux, uy) out of the line: [x, y, ux, uy] in `ca`. */
  private cap(cap: Cap): void {
    const ca = this.ca;
    const x = ca[0]!;
    const y = ca[1]!;
    const ux = ca[2]!;
    const uy = ca[3]!;
    const h = this.h;
    // Normal to the right of the outward direction; the cap runs from x - n round to x + n.
    const nx = -uy * h;
    const ny = ux * h;
    const o = this.out;
    o.push(x - nx, y - ny);
    if (cap === 'square') {
      o.push(x - nx + ux * h, y - ny + uy * h);
      o.push(x + nx + ux * h, y + ny + uy * h);
    } else {
      // The half circle from -n round to n through u: the points of arc() for a sweep of pi,
      // each turned from the start direction (uy, -ux) by the cap's table (no trigonometry a
      // cap; the same points within a few ulps).
      const t = this.turnsOfCap();
      for (let i = 0; i < t.length; i += 2) {
        const c = t[i]!;
        const s = t[i + 1]!;
        o.push(x + (uy * c + ux * s) * h, y + (uy * s - ux * c) * h);
      }
    }
    o.push(x + nx, y + ny);
    o.close();
  }

  /**
   * Interior points of an arc of radius r from angle a0 sweeping `sweep` (screen-positive):
   * [cx, cy, a0, sweep, r] in `aa`. Onto the outline (`out`), or with `right` onto the right side
   * in reverse order (so they come out in arc order when the side is closed).
   */
  private arc(right = false): void {
    const aa = this.aa;
    const cx = aa[0]!;
    const cy = aa[1]!;
    const a0 = aa[2]!;
    const sweep = aa[3]!;
    const r = aa[4]!;
    const k = Math.ceil(sweep / this.arcStep - 1e-9);
    const step = sweep / k;
    if (right) {
      for (let i = k - 1; i >= 1; i--) {
        const a = a0 + step * i;
        this.pushRight(cx + Math.cos(a) * r, cy + Math.sin(a) * r);
      }
      return;
    }
    for (let i = 1; i < k; i++) {
      const a = a0 + step * i;
      this.out.push(cx + Math.cos(a) * r, cy + Math.sin(a) * r);
    }
  }
}

/** The cut line along edge i -> i + 1 (wrapping) of n points: 1 vertical, 2 horizontal, else 0. */
function edgeAxis(p: Float64Array, i: number, n: number): CutAxis {
  const j = (i + 1) % n;
  const dx = Math.abs(p[j * 2]! - p[i * 2]!);
  const dy = Math.abs(p[j * 2 + 1]! - p[i * 2 + 1]!);
  return dy > 0 && dx <= 1e-9 * dy ? 1 : dx > 0 && dy <= 1e-9 * dx ? 2 : 0;
}

/**
 * Sutherland-Hodgman of convex polygon `src` (m points) against the half-plane
 * ((x, y) - (px, py)) . (dx, dy) >= 0 (an axis direction), into `dst`; returns its point count.
 */
function clipHalf(src: Float64Array, m: number, dst: Float64Array, px: number, py: number, dx: number, dy: number): number {
  let n = 0;
  for (let i = 0; i < m; i++) {
    const j = (i + 1) % m;
    const ax = src[i * 2]!;
    const ay = src[i * 2 + 1]!;
    const bx = src[j * 2]!;
    const by = src[j * 2 + 1]!;
    const fa = (ax - px) * dx + (ay - py) * dy;
    const fb = (bx - px) * dx + (by - py) * dy;
    if (fa >= 0) {
      dst[n++] = ax;
      dst[n++] = ay;
    }
    if (fa >= 0 !== fb >= 0) {
      const t = fa / (fa - fb);
      // On the line exactly along its axis.
      dst[n++] = dx !== 0 ? px : ax + (bx - ax) * t;
      dst[n++] = dy !== 0 ? py : ay + (by - ay) * t;
    }
  }
  return n >> 1;
}

/**
 * How far a stroke's ink can reach from its centre line, for the canvas padding: half the width
 * times the miter limit (miter joins) or sqrt(2) (square caps' corners), plus the offset, itself
 * grown by the miter limit because offset vertices follow the miter.
 */
export function strokeReach(width: number, join: Join, cap: Cap, miterLimit: number, offset: number): number {
  const joinF = join === 'miter' ? Math.max(1, miterLimit) : 1;
  const capF = cap === 'square' ? Math.SQRT2 : 1;
  return (width / 2) * Math.max(joinF, capF) + Math.abs(offset) * Math.max(1, miterLimit);
}
