// What both backends of `stroke` share: the dabs (position, radius, strength, paint) laid along
// every line and ring, and the round dab profile.
//
// World-stable placement: on a segment with unit direction u, dabs sit where dot(P, u) (P in world
// pixels) is a multiple of the spacing. That lattice depends only on the segment's supporting
// line, not on where the segment was clipped, so a line cut by a canvas or a source-tile edge
// gets the same dabs on both sides; a line drawn reversed gets the same set. Real line ends and
// vertices not made by clipping get a dab of their own (round ends, no gaps at joins). Jitter is
// hashed from the seed, the feature and the dab's world position. Both read world x modulo the
// world's width W, so a line near the antimeridian gets the same dabs in whichever copy of the
// world a canvas holds it; a segment crossing x = m W is laid in pieces, one per world (the
// lattice restarts at the antimeridian: one irregular gap, under a spacing). What stays canvas-dependent:
// `pressure-curve` runs over the line as delivered, so it is seam-stable only for lines that lie
// whole within a canvas's reach (a line cut by clipping has an unknown total length).
import { joinedAtCuts } from '../../geometry/groups.js';
import { hypot } from '../../geometry/hypot.js';
import { sameProperties } from '../../sources/sample.js';
import { RenderError } from '../../errors.js';
import { BLACK, clamp01, groupColor, groupNumber } from '../../expr/paint.js';
import type { Brush, FeatureGroup, Features, RGBA } from '../../types.js';
import type { OpContext } from '../types.js';
import { dabLayer, LAY_CHUNK } from './simd.js';

/** Most dabs one stroke node lays in one render (a bound, past which the render fails clearly). */
const MAX_DABS = 4_000_000;
/** Smallest dab spacing in pixels (denser dabs change nothing visible). */
const MIN_SPACING_PX = 0.05;
/** Narrowest dab drawn, pixels: thinner ones are drawn this wide with their strength scaled by width / this. */
const MIN_DAB_WIDTH = 1;
/** Default bound of a dab's width (brush width x width-scale x pressure x size jitter), pixels. */
export const DEFAULT_WIDTH_MAX = 32;

export interface Dabs {
  count: number;
  /** Per dab: cx, cy (canvas pixels), radius, strength (alpha multiplier). */
  geom: Float32Array;
  /** Per dab: the index of its group's paint in `paints`. */
  group: Uint32Array;
  /**
   * Plain round strokes (no jitter, no pressure): the lattice dabs of each segment as one run,
   * [ax, ay (canvas pixels), ux, uy, d0, spacing, count, radius, strength] per run: dab j sits at
   * A + u (d0 + j spacing). All of a run's dabs are alike, so the strongest at a pixel is the
   * nearest, found by projection (drawDabs and the GPU pass alike; singleDabs expands them).
   */
  runs: Float64Array;
  runGroup: Uint32Array;
  runCount: number;
  /** Per group: premultiplied paint. */
  paints: Float32Array;
  groups: number;
  /** Round dabs (a 1 x 1 tip) or the tip image over the dab's square. */
  round: boolean;
  /** Image tips: use only the tip's alpha, painted with the group's paint. */
  tinted: boolean;
  hardness: number;
  aa: number;
  tip: Brush['tip'];
}

/**
 * Round dab alpha at distance d from the centre, radius r: a linear fade from hardness x r to r,
 * and an anti-aliasing ramp `aa` pixels wide centred on the rim (a step when aa = 0). With
 * hardness 1 and aa 1 it is the circles op's coverage clamp(r - d + 0.5, 0, 1).
 */
export function roundProfile(d: number, r: number, hardness: number, aa: number): number {
  const edge = aa > 0 ? clamp01((r - d) / aa + 0.5) : d <= r ? 1 : 0;
  if (hardness >= 1) return edge;
  const soft = clamp01((r - d) / ((1 - hardness) * r));
  return edge < soft ? edge : soft;
}

/** How far a dab of radius r reaches (pixels), for padding and bins. */
export function dabReach(r: number, round: boolean, aa: number): number {
  return round ? r + aa / 2 + 0.5 : r * Math.SQRT2 + 1;
}

/** 32-bit hash of integers (a murmur3-style mix), as a number in [0, 1). */
function hash01(a: number, b: number, c: number, d: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ b, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ d, 0x165667b1);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** A stable integer for a feature: its id, else a hash of its properties. */
function featureKey(g: FeatureGroup): number {
  const s = g.id !== undefined ? String(g.id) : JSON.stringify(g.properties);
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h | 0;
}

/** Piecewise-linear width multiplier over t in [0, 1], from [[t, w], ...] (sorted here); 1 without a curve. */
export function pressureOf(curve: unknown): (t: number) => number {
  if (!Array.isArray(curve) || curve.length === 0) return () => 1;
  const pts = (curve as number[][]).map(([t, w]) => [Number(t), Math.max(0, Number(w))] as [number, number]).sort((a, b) => a[0] - b[0]);
  return (t) => {
    if (t <= pts[0]![0]) return pts[0]![1];
    for (let i = 1; i < pts.length; i++) {
      const [t1, w1] = pts[i]!;
      if (t <= t1) {
        const [t0, w0] = pts[i - 1]!;
        return t1 > t0 ? w0 + ((w1 - w0) * (t - t0)) / (t1 - t0) : w1;
      }
    }
    return pts[pts.length - 1]![1];
  };
}

/**
 * Every dab of a stroke node for its canvas, in paint order (group by group). Jittered dabs are
 * laid in WebAssembly (stroke.wat `lay`, bit for bit DabLayout.push) where it runs and no pressure
 * curve is set; `reference: true` lays every dab through push (the oracle of the tests).
 * `borrow: true` (the CPU kernel, which draws them at once): the dabs' `geom` and `group` lie in
 * buffers this module reuses, valid until the next borrowing call, instead of new arrays (a fresh
 * array of a stroke's ~40,000 dabs costs ~20x its copy in page faults and collections).
 */
export function strokeDabs(ctx: OpContext, brush: Brush, opts: { reference?: boolean; borrow?: boolean } = {}): Dabs {
  const features = ctx.input<'features'>('features') as Features;
  const layout = new DabLayout(ctx, brush, opts.reference === true, opts.borrow === true);
  // A line one source tile's piece ends where the next one's starts (a canvas that merges source
  // tiles, MVT lines without ids) is one feature again: its dabs united as the whole line's are.
  const key = new Map<FeatureGroup, number>();
  const keyOf = (g: FeatureGroup) => {
    let k = key.get(g);
    if (k === undefined) key.set(g, (k = featureKey(g)));
    return k;
  };
  // Where a dab can reach the canvas (DabLayout.walk's test), in world pixels.
  const m = layout.reachMax + layout.scatter + 1;
  const { x0, y0, width, height } = ctx.canvas;
  const box = [x0 - m, y0 - m, x0 + width + m, y0 + height + m] as const;
  const same = (a: FeatureGroup, b: FeatureGroup) => keyOf(a) === keyOf(b) && a.id === b.id && sameProperties(a.properties, b.properties);
  for (const run of joinedAtCuts(features.groups, same, box)) layout.feature(run);
  return layout.dabs();
}

/** Floats of a reused dab buffer kept past a call (4 MiB); a larger one is dropped once done with. */
const BORROW_KEEP = 1 << 20;
/** The reused buffers of borrowing calls: the laid dabs' copy, the dabs push lays, and their groups. */
let borrowedGeom: Float32Array = new Float32Array(0);
let borrowedPushed: Float32Array = new Float32Array(4096 * 4);
let borrowedGroup: Uint32Array = new Uint32Array(4096);

/** Lays a stroke node's dabs: its settings, and the dabs and runs laid so far. */
class DabLayout {
  readonly x0: number;
  readonly y0: number;
  readonly W: number;
  readonly H: number;
  readonly world: number;
  readonly round: boolean;
  readonly tinted: boolean;
  readonly tintOf: (g: FeatureGroup) => RGBA;
  readonly widthScaleOf: (g: FeatureGroup) => number;
  readonly spacingScale: number;
  readonly widthMax: number;
  readonly scatter: number;
  readonly sizeJitter: number;
  readonly opacityJitter: number;
  readonly opacity: number;
  readonly seed: number;
  readonly pressure: (t: number) => number;
  readonly hasPressure: boolean;
  readonly thinnest: number;
  readonly tc: Float32Array;
  readonly reachMax: number;
  readonly plain: boolean;
  // Per feature: width (so spacing) and paint. Round dabs: the tip's own colour, or the stroke
  // colour. Image tips: tinted by the stroke colour, or their own texels.
  baseW = 0;
  sp = 1;
  paint: RGBA = [1, 1, 1, 1];
  readonly runs: number[] = [];
  readonly runGroup: number[] = [];
  /** Dabs laid (singles and runs), against MAX_DABS. */
  total = 0;
  /** The dabs laid so far, [cx, cy, r, m] each: in the lay kernel's memory where it runs. */
  geom: Float32Array;
  grp: Uint32Array;
  n = 0;
  readonly paints: number[] = [];
  fkey = 0;
  gi = 0;
  /** Whole worlds between the copy being laid and world [0, W): x - shift is the dab's x in [0, W). */
  shift = 0;
  /** Dense enough that a dab at each vertex reads as part of the line (set per feature). */
  vertexDabs = false;
  /** The WebAssembly lay kernel (simd.ts dabLayer), else null: push lays every dab. */
  readonly layer: ReturnType<typeof dabLayer>;

  constructor(
    readonly ctx: OpContext,
    readonly brush: Brush,
    reference: boolean,
    readonly borrow: boolean,
  ) {
    ({ x0: this.x0, y0: this.y0, width: this.W, height: this.H } = ctx.canvas);
    this.world = ctx.canvas.tileSize * 2 ** ctx.canvas.z;
    this.round = brush.tip.width === 1 && brush.tip.height === 1;
    this.tinted = ctx.node.color !== undefined || ctx.node['color-expr'] !== undefined;
    this.tintOf = groupColor(ctx, 'color-expr', ctx.node.color !== undefined ? ctx.color('color', BLACK) : BLACK);
    this.widthScaleOf = groupNumber(ctx, 'width-scale-expr', ctx.num('width-scale', 1));
    this.spacingScale = Math.max(1e-6, ctx.num('spacing-scale', 1));
    this.widthMax = ctx.num('width-max', DEFAULT_WIDTH_MAX);
    this.scatter = Math.max(0, ctx.num('scatter-px', 0));
    this.sizeJitter = clamp01(ctx.num('size-jitter', 0));
    this.opacityJitter = clamp01(ctx.num('opacity-jitter', 0));
    this.opacity = clamp01(ctx.num('opacity', 1));
    this.seed = ctx.num('seed', 0) | 0;
    const curve = ctx.node['pressure-curve'];
    this.pressure = pressureOf(curve);
    this.hasPressure = Array.isArray(curve) && (curve as unknown[]).length > 0;
    this.thinnest = this.hasPressure ? Math.min(1, Math.max(0.25, ...(curve as number[][]).map((p) => Number(p[1])).filter((w) => w > 0))) : 1;
    this.tc = brush.tip.data;
    this.reachMax = dabReach(this.widthMax / 2, this.round, brush.aa) + this.scatter;
    this.plain = this.round && !this.hasPressure && this.scatter === 0 && this.sizeJitter === 0 && this.opacityJitter === 0;
    this.layer =
      reference || this.hasPressure || this.plain
        ? null
        : dabLayer({
            x0: this.x0,
            y0: this.y0,
            W: this.W,
            H: this.H,
            reachMax: this.reachMax,
            opacity: this.opacity,
            sizeJitter: this.sizeJitter,
            opacityJitter: this.opacityJitter,
            scatter: this.scatter,
            widthMax: this.widthMax,
            seed: this.seed,
          });
    this.geom = this.layer ? this.layer.room(LAY_CHUNK) : borrow ? borrowedPushed : new Float32Array(4096 * 4);
    this.grp = borrow ? borrowedGroup : new Uint32Array(4096);
  }

  /**
   * walk's lattice loop on one piece (dabs k, k + 1, ... while k sp < sA + p1) in the lay kernel:
   * only the k whose dabs can reach the canvas (their centre within reachMax + scatter + 1 px of
   * it in x and y; push refuses every other one), in chunks of LAY_CHUNK.
   */
  layPiece(ax: number, ay: number, ux: number, uy: number, sA: number, p0: number, p1: number, k: number): void {
    const M = this.reachMax + this.scatter + 1;
    let lo = p0;
    let hi = p1;
    const cax = ax - this.x0;
    const cay = ay - this.y0;
    if (Math.abs(ux) < 1e-12) {
      if (cax < -M || cax > this.W + M) return;
    } else {
      const t0 = (-M - cax) / ux;
      const t1 = (this.W + M - cax) / ux;
      lo = Math.max(lo, Math.min(t0, t1));
      hi = Math.min(hi, Math.max(t0, t1));
    }
    if (Math.abs(uy) < 1e-12) {
      if (cay < -M || cay > this.H + M) return;
    } else {
      const t0 = (-M - cay) / uy;
      const t1 = (this.H + M - cay) / uy;
      lo = Math.max(lo, Math.min(t0, t1));
      hi = Math.min(hi, Math.max(t0, t1));
    }
    if (!(hi >= lo)) return;
    const end = sA + p1;
    const kEnd = Math.floor((sA + hi) / this.sp) + 1;
    // The piece's dabs lie within M + sp of the canvas before scatter: their 1/8 px cells
    // (x from the world copy's edge) fit in an int32 by far below 2^28 px.
    const reach = this.W + this.H + M + this.sp + 2;
    const quad = Math.abs(this.x0 - this.shift) + reach < 2 ** 27 && Math.abs(this.y0) + reach < 2 ** 27 ? 1 : 0;
    for (let kf = Math.max(k, Math.ceil((sA + lo) / this.sp) - 1); kf <= kEnd && kf * this.sp < end; kf += LAY_CHUNK) {
      // The dabs accumulate in the kernel's memory (this.geom views it): room for a whole chunk.
      if ((this.n + LAY_CHUNK) * 4 > this.geom.length) this.geom = this.layer!.room(Math.max(2 * this.n, this.n + LAY_CHUNK));
      const c = this.layer!.lay(this.n, ax, ay, ux, uy, sA, kf, kEnd, end, this.shift, this.sp, this.baseW, this.fkey, quad);
      if (c === 0) continue;
      this.total += c;
      if (this.total > MAX_DABS)
        throw new RenderError(
          `node '${this.ctx.id}' lays more than ${MAX_DABS} dabs in one render; raise spacing-scale or dabs-per-radius is too high for this data`,
        );
      if (this.n + c > this.grp.length) {
        let len = this.grp.length * 2;
        while (this.n + c > len) len *= 2;
        const p2 = new Uint32Array(len);
        p2.set(this.grp);
        this.grp = p2;
      }
      this.grp.fill(this.gi, this.n, this.n + c);
      this.n += c;
    }
  }

  /**
   * The dabs of one feature (a group of its own when it lays any): `run`, its pieces (groups of
   * equal id and properties, joinedAtCuts), the first one's settings for all.
   */
  feature(run: readonly FeatureGroup[]): void {
    const g = run[0]!;
    if (run.length === 1 && !g.lines.length && !g.polygons.length) return;
    this.fkey = featureKey(g);
    this.baseW = this.brush.widthPx * Math.max(0, this.widthScaleOf(g) || 0);
    if (!(this.baseW > 0)) return;
    // Tapered dabs (a pressure curve) keep overlapping: the spacing follows the thinnest part (at least a quarter of the width).
    this.sp = Math.max(MIN_SPACING_PX, this.brush.spacing * this.baseW * this.spacingScale * this.thinnest);
    this.vertexDabs = this.sp < this.baseW;
    const tint = this.tintOf(g);
    this.paint = this.tinted
      ? [tint[0] * tint[3], tint[1] * tint[3], tint[2] * tint[3], tint[3]]
      : this.round
        ? [this.tc[0]!, this.tc[1]!, this.tc[2]!, this.tc[3]!]
        : [1, 1, 1, 1];
    const start = this.n + this.runGroup.length;
    for (const p of run) {
      for (let i = 0; i < p.lines.length; i++) {
        const cut = p.cutEnds?.[i] ?? 0;
        this.walk(p.lines[i]!, false, (cut & 1) !== 0, (cut & 2) !== 0);
      }
      for (let i = 0; i < p.polygons.length; i++) {
        const poly = p.polygons[i]!;
        for (let k = 0; k < poly.length; k++) this.walk(poly[k]!, true, false, false, p.polygonCuts?.[i]?.[k]);
      }
    }
    if (this.n + this.runGroup.length > start) {
      this.paints.push(...this.paint);
      this.gi++;
    }
  }

  /** One dab at world (wx, wy), t along its line, on a segment of direction (dx, dy). */
  push(wx: number, wy: number, t: number, dx: number, dy: number): void {
    // Jitter from the dab's world position (1/8 px cells, x modulo the world) and the feature.
    const qx = Math.round((wx - this.shift) * 8) | 0;
    const qy = Math.round(wy * 8) | 0;
    let w = this.baseW * (this.hasPressure ? this.pressure(t) : 1);
    let m = this.opacity;
    if (this.sizeJitter > 0) w *= 1 + this.sizeJitter * (2 * hash01(this.seed, this.fkey, qx, qy ^ 0x51ed27) - 1);
    if (this.opacityJitter > 0) m *= 1 - this.opacityJitter * hash01(this.seed ^ 0x2545f491, this.fkey, qx, qy);
    if (this.scatter > 0) {
      const o = this.scatter * (2 * hash01(this.seed ^ 0x68e31da4, this.fkey, qx, qy) - 1);
      wx -= dy * o; // perpendicular to the segment
      wy += dx * o;
    }
    if (!(w > 0) || !(m > 0)) return;
    if (w > this.widthMax) w = this.widthMax;
    // Narrower than a pixel: drawn a pixel wide and fainter in proportion (centre-sampled
    // coverage of a sub-pixel dab would alias into dots).
    if (w < MIN_DAB_WIDTH) {
      m *= w / MIN_DAB_WIDTH;
      w = MIN_DAB_WIDTH;
    }
    const cx = wx - this.x0;
    const cy = wy - this.y0;
    if (cx < -this.reachMax || cy < -this.reachMax || cx > this.W + this.reachMax || cy > this.H + this.reachMax) return;
    if (++this.total > MAX_DABS)
      throw new RenderError(
        `node '${this.ctx.id}' lays more than ${MAX_DABS} dabs in one render; raise spacing-scale or dabs-per-radius is too high for this data`,
      );
    if (this.n * 4 + 4 > this.geom.length) {
      if (this.layer) this.geom = this.layer.room(2 * this.n + 4096);
      else {
        const g2 = new Float32Array(this.geom.length * 2);
        g2.set(this.geom);
        this.geom = g2;
      }
    }
    if (this.n + 1 > this.grp.length) {
      const p2 = new Uint32Array(this.grp.length * 2);
      p2.set(this.grp);
      this.grp = p2;
    }
    this.geom[this.n * 4] = cx;
    this.geom[this.n * 4 + 1] = cy;
    this.geom[this.n * 4 + 2] = w / 2;
    this.geom[this.n * 4 + 3] = m;
    this.grp[this.n++] = this.gi;
  }

  /** The lattice dabs k0, k0 + 1, ... of one segment (d = k sp - sA in [d0, d1)) that reach the canvas, as one run. */
  run(ax: number, ay: number, ux: number, uy: number, sA: number, d0: number, d1: number, k0: number): void {
    const w = Math.max(MIN_DAB_WIDTH, Math.min(this.baseW, this.widthMax));
    const strength = this.opacity * Math.min(1, Math.min(this.baseW, this.widthMax) / MIN_DAB_WIDTH);
    const reach = dabReach(w / 2, true, this.brush.aa);
    const cax = ax - this.x0;
    const cay = ay - this.y0;
    // Offsets d = k sp - sA along the segment, limited to [d0, d1) and to centres within reach of the canvas.
    let lo = d0;
    let hi = d1;
    for (const [a, u, size] of [
      [cax, ux, this.W],
      [cay, uy, this.H],
    ] as const) {
      if (Math.abs(u) < 1e-12) {
        if (a < -reach || a > size + reach) return;
        continue;
      }
      const t0 = (-reach - a) / u;
      const t1 = (size + reach - a) / u;
      lo = Math.max(lo, Math.min(t0, t1));
      hi = Math.min(hi, Math.max(t0, t1));
    }
    if (!(hi >= lo)) return;
    const kFirst = Math.max(k0, Math.ceil((sA + lo) / this.sp));
    let kLast = Math.floor((sA + hi) / this.sp);
    if (kLast * this.sp >= sA + d1) kLast--;
    const count = kLast - kFirst + 1;
    if (count <= 0) return;
    this.total += count;
    if (this.total > MAX_DABS)
      throw new RenderError(
        `node '${this.ctx.id}' lays more than ${MAX_DABS} dabs in one render; raise spacing-scale or dabs-per-radius is too high for this data`,
      );
    this.runs.push(cax, cay, ux, uy, kFirst * this.sp - sA, this.sp, count, w / 2, strength);
    this.runGroup.push(this.gi);
  }

  /** Dabs along one line or ring `c` (flat world coordinates); clipped ends and edges get none of their own. */
  walk(c: Float64Array, closed: boolean, cutStart: boolean, cutEnd: boolean, edgeCut?: Uint8Array): void {
    const nv = c.length >> 1;
    if (nv < 2) return;
    const ns = closed ? nv : nv - 1;
    let lineLength = 0; // for the pressure curve's t
    if (this.hasPressure) for (let i = 0; i < ns; i++) lineLength += hypot(c[((i + 1) % nv) * 2]! - c[i * 2]!, c[((i + 1) % nv) * 2 + 1]! - c[i * 2 + 1]!);
    let along = 0;
    for (let i = 0; i < ns; i++) {
      const j = (i + 1) % nv;
      const ax = c[i * 2]!,
        ay = c[i * 2 + 1]!;
      const bx = c[j * 2]!,
        by = c[j * 2 + 1]!;
      const len = hypot(bx - ax, by - ay);
      if (!(len > 0)) continue;
      const ux = (bx - ax) / len;
      const uy = (by - ay) / len;
      const cut = edgeCut?.[i] === 1;
      // A segment whose every dab lands beyond the canvas's reach, scatter included, lays none
      // (push would refuse each after hashing its jitter): a margin of a pixel over the bound.
      const m = this.reachMax + this.scatter + 1;
      const far =
        Math.max(ax, bx) - this.x0 < -m ||
        Math.min(ax, bx) - this.x0 > this.W + m ||
        Math.max(ay, by) - this.y0 < -m ||
        Math.min(ay, by) - this.y0 > this.H + m;
      if (!cut && !(far && !this.plain)) {
        // Vertex dabs: line ends not made by clipping, and vertices between two real edges.
        const startReal = closed ? edgeCut?.[(i + ns - 1) % ns] !== 1 : i === 0 ? !cutStart : true;
        this.shift = Math.floor(ax / this.world) * this.world;
        if (this.vertexDabs && startReal) this.push(ax, ay, lineLength > 0 ? along / lineLength : 0, ux, uy);
        // One piece per world the segment passes through (almost always one).
        let p0 = 0;
        while (p0 < len) {
          let p1 = len;
          const m = ux > 0 ? Math.floor((ax + ux * p0) / this.world) + 1 : Math.ceil((ax + ux * p0) / this.world) - 1;
          if (ux !== 0) {
            const dm = (m * this.world - ax) / ux;
            if (dm > p0 && dm < len) p1 = dm;
          }
          this.shift = Math.floor((ax + ux * ((p0 + p1) / 2)) / this.world) * this.world;
          const sA = (ax - this.shift) * ux + ay * uy;
          let k = Math.ceil((sA + p0) / this.sp);
          if (this.plain) {
            this.run(ax, ay, ux, uy, sA, p0, p1, k);
            k = Infinity;
          } else if (this.layer) {
            this.layPiece(ax, ay, ux, uy, sA, p0, p1, k);
            k = Infinity;
          }
          for (let s = k * this.sp; s < sA + p1; s = ++k * this.sp) {
            const d = s - sA;
            this.push(ax + ux * d, ay + uy * d, lineLength > 0 ? (along + d) / lineLength : 0, ux, uy);
          }
          p0 = p1;
        }
        this.shift = Math.floor(bx / this.world) * this.world;
        if (this.vertexDabs && !closed && i === ns - 1 && !cutEnd) this.push(bx, by, 1, ux, uy);
      }
      along += len;
    }
  }

  dabs(): Dabs {
    const { n, runGroup, brush } = this;
    let geom = this.geom.subarray(0, n * 4);
    if (this.borrow) {
      // Grown arrays are kept for the next call; the lay kernel's dabs copied into the reused buffer.
      if (this.grp.length <= BORROW_KEEP) borrowedGroup = this.grp;
      if (!this.layer && this.geom.length <= BORROW_KEEP) borrowedPushed = this.geom;
      if (this.layer) {
        if (borrowedGeom.length < n * 4) borrowedGeom = new Float32Array(Math.max(n * 4, 2 * borrowedGeom.length));
        const out = borrowedGeom.subarray(0, n * 4);
        out.set(geom);
        geom = out;
        if (borrowedGeom.length > BORROW_KEEP) borrowedGeom = new Float32Array(0);
      }
    } else if (this.layer) geom = geom.slice();
    return {
      count: n,
      runs: Float64Array.from(this.runs),
      runGroup: Uint32Array.from(runGroup),
      runCount: runGroup.length,
      // The lay kernel's dabs are copied out of its memory (the draw kernel reuses it).
      geom,
      group: this.grp.subarray(0, n),
      paints: Float32Array.from(this.paints),
      groups: this.gi,
      round: this.round,
      tinted: this.tinted,
      hardness: brush.hardness,
      aa: brush.aa,
      tip: brush.tip,
    };
  }
}

/** Every dab one by one (runs expanded), in group order: the same stroke without runs (tests check runs against it). */
export function singleDabs(d: Dabs): { count: number; geom: Float32Array; group: Uint32Array } {
  let total = d.count;
  for (let i = 0; i < d.runCount; i++) total += d.runs[i * 9 + 6]!;
  const geom = new Float32Array(total * 4);
  const group = new Uint32Array(total);
  let n = 0;
  let si = 0;
  let ri = 0;
  while (si < d.count || ri < d.runCount) {
    // Singles and runs of the lower group first (both lists ascend by group).
    if (ri >= d.runCount || (si < d.count && d.group[si]! <= d.runGroup[ri]!)) {
      geom.set(d.geom.subarray(si * 4, si * 4 + 4), n * 4);
      group[n++] = d.group[si++]!;
      continue;
    }
    const o = ri * 9;
    const [ax, ay, ux, uy, d0, sp, count, r, m] = d.runs.subarray(o, o + 9) as unknown as number[];
    for (let j = 0; j < count!; j++) {
      const t = d0! + j * sp!;
      geom[n * 4] = ax! + ux! * t;
      geom[n * 4 + 1] = ay! + uy! * t;
      geom[n * 4 + 2] = r!;
      geom[n * 4 + 3] = m!;
      group[n++] = d.runGroup[ri]!;
    }
    ri++;
  }
  return { count: n, geom, group };
}
