// Line labels: glyphs set one by one along a polyline, each turned to the direction of the segment
// under its centre, the text centred on the line. A candidate is refused where two neighbouring
// characters turn by more than `max-angle`, or where the label runs off the line's end. Kept
// upright: a label whose start lies right of its end is set along the reversed line.
import type { Layout } from './layout.js';

/** A line label's glyphs: origins (world pixels) and the direction of each. */
export interface AlongPlacement {
  /** The point at the anchor distance, world pixels. */
  x: number;
  y: number;
  gx: Float64Array;
  gy: Float64Array;
  cos: Float64Array;
  sin: Float64Array;
  /** Collision boxes, one per glyph with an advance, world pixels, not padded. */
  boxes: Float64Array;
}

/** A single-line layout measured for line placement: pen positions, advances and offsets in pixels. */
export interface LineRun {
  layout: Layout;
  /** Pen position and advance of each glyph along the line (offsets excluded), pixels. */
  pen: Float64Array;
  advance: Float64Array;
  /** The glyph's own offset (HarfBuzz's x / y offsets), pixels. */
  offX: Float64Array;
  offY: Float64Array;
  length: number;
  /** Extent of the text across the line: from `top` to `bottom` pixels (y down), centred on it. */
  top: number;
  bottom: number;
}

/** Cumulative lengths of a polyline's vertices. */
export function cumulative(line: ArrayLike<number>): Float64Array {
  const n = line.length >> 1;
  const cum = new Float64Array(n);
  for (let i = 1; i < n; i++) cum[i] = cum[i - 1]! + Math.hypot(line[i * 2]! - line[i * 2 - 2]!, line[i * 2 + 1]! - line[i * 2 - 1]!);
  return cum;
}

/** Index of the segment holding distance d (the last one past the end). */
function segmentAt(cum: Float64Array, d: number, from: number): number {
  let i = from;
  while (i < cum.length - 2 && cum[i + 1]! < d) i++;
  return i;
}

/** The point at distance d along the line. */
export function pointAt(line: ArrayLike<number>, cum: Float64Array, d: number): [number, number] {
  const i = segmentAt(cum, d, 0);
  const len = cum[i + 1]! - cum[i]!;
  const t = len > 0 ? (d - cum[i]!) / len : 0;
  return [line[i * 2]! + (line[i * 2 + 2]! - line[i * 2]!) * t, line[i * 2 + 1]! + (line[i * 2 + 3]! - line[i * 2 + 1]!) * t];
}

function reversed(line: ArrayLike<number>): Float64Array {
  const n = line.length >> 1;
  const out = new Float64Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = line[(n - 1 - i) * 2]!;
    out[i * 2 + 1] = line[(n - 1 - i) * 2 + 1]!;
  }
  return out;
}

/**
 * The label of `run` centred at distance `s` along `line` (world pixels), or undefined when it runs
 * off the line or bends more than `maxAngle` (radians) between neighbouring characters.
 */
export function placeAlong(line: Float64Array, cum: Float64Array, s: number, run: LineRun, maxAngle: number, upright: boolean): AlongPlacement | undefined {
  const total = cum[cum.length - 1]!;
  const half = run.length / 2;
  if (s - half < 0 || s + half > total || cum.length < 2) return undefined;
  const [ax, ay] = pointAt(line, cum, s);
  let path = line;
  let c = cum;
  let at = s;
  if (upright) {
    const [x0] = pointAt(line, cum, s - half);
    const [x1] = pointAt(line, cum, s + half);
    if (x1 < x0) {
      path = reversed(line);
      c = cumulative(path);
      at = total - s;
    }
  }
  const n = run.pen.length;
  let withAdvance = 0;
  for (let i = 0; i < n; i++) if (run.advance[i]! > 0) withAdvance++;
  // One buffer for the five arrays (a candidate the feature cache keeps: one backing store, not five).
  const buffer = new ArrayBuffer((4 * n + 4 * withAdvance) * 8);
  const gx = new Float64Array(buffer, 0, n);
  const gy = new Float64Array(buffer, 8 * n, n);
  const cos = new Float64Array(buffer, 16 * n, n);
  const sin = new Float64Array(buffer, 24 * n, n);
  const boxes = new Float64Array(buffer, 32 * n, withAdvance * 4);
  let b = 0;
  let seg = 0;
  let lastAngle = NaN;
  for (let i = 0; i < n; i++) {
    const adv = run.advance[i]!;
    const d = at - half + run.pen[i]! + adv / 2;
    seg = segmentAt(c, d, seg);
    const x0 = path[seg * 2]!;
    const y0 = path[seg * 2 + 1]!;
    const dx = path[seg * 2 + 2]! - x0;
    const dy = path[seg * 2 + 3]! - y0;
    const len = Math.hypot(dx, dy) || 1;
    const co = dx / len;
    const si = dy / len;
    if (adv > 0) {
      const angle = Math.atan2(si, co);
      if (lastAngle === lastAngle) {
        let turn = Math.abs(angle - lastAngle);
        if (turn > Math.PI) turn = 2 * Math.PI - turn;
        if (turn > maxAngle) return undefined;
      }
      lastAngle = angle;
    }
    const t = (d - c[seg]!) / len;
    const px = x0 + dx * t;
    const py = y0 + dy * t;
    // The glyph origin: half an advance back along the line, its offsets, rotated with the segment.
    const lx = -adv / 2 + run.offX[i]!;
    const ly = run.offY[i]!;
    gx[i] = px + co * lx - si * ly;
    gy[i] = py + si * lx + co * ly;
    cos[i] = co;
    sin[i] = si;
    if (adv > 0) {
      // The glyph's box: its advance along the line by the run's height, turned (corners in this order).
      const box = turnedBox(px, py, co, si, -adv / 2, run.top, adv / 2, run.bottom);
      boxes[b++] = box.x0;
      boxes[b++] = box.y0;
      boxes[b++] = box.x1;
      boxes[b++] = box.y1;
    }
  }
  return { x: ax, y: ay, gx, gy, cos, sin, boxes };
}

/** Box turnedBox() answers in (one object reused: read it before the next call). */
const turned = { x0: 0, y0: 0, x1: 0, y1: 0 };

/**
 * Box of the rectangle [u0, u1] x [v0, v1] turned by (co, si) and moved to (px, py): its corners
 * (u0, v0), (u1, v0), (u1, v1), (u0, v1) in that order, the first of equal extremes kept, each
 * also written to `corners` from `at` (x, y pairs) when given. The answer is a shared object (no
 * allocation per glyph).
 */
export function turnedBox(
  px: number,
  py: number,
  co: number,
  si: number,
  u0: number,
  v0: number,
  u1: number,
  v1: number,
  corners?: Float64Array,
  at = 0,
): typeof turned {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let k = 0; k < 4; k++) {
    const u = k === 0 || k === 3 ? u0 : u1;
    const v = k < 2 ? v0 : v1;
    const x = px + co * u - si * v;
    const y = py + si * u + co * v;
    if (corners) {
      corners[at + k * 2] = x;
      corners[at + k * 2 + 1] = y;
    }
    if (x < x0) x0 = x;
    if (y < y0) y0 = y;
    if (x > x1) x1 = x;
    if (y > y1) y1 = y;
  }
  turned.x0 = x0;
  turned.y0 = y0;
  turned.x1 = x1;
  turned.y1 = y1;
  return turned;
}

/** Anchor distances along a line measured from its start: one in the middle of a short line, else every `spacing` from spacing / 2. */
export function spacedAnchors(total: number, spacing: number, labelLength: number): number[] {
  if (total < labelLength) return [];
  if (total < spacing || spacing <= 0) return [total / 2];
  const out: number[] = [];
  for (let s = spacing / 2; s <= total; s += spacing) out.push(s);
  return out;
}

/**
 * Anchor distances where a line crosses the world grid of `spacing` px (x or y a multiple of it):
 * a property of the line where it runs, not of where a canvas cut it, for lines that have no whole
 * form (the output of a geometry op).
 */
export function gridAnchors(line: ArrayLike<number>, cum: Float64Array, spacing: number): number[] {
  const out: number[] = [];
  if (spacing <= 0) return out;
  for (let i = 0; i + 1 < cum.length; i++) {
    const x0 = line[i * 2]!;
    const y0 = line[i * 2 + 1]!;
    const x1 = line[i * 2 + 2]!;
    const y1 = line[i * 2 + 3]!;
    const len = cum[i + 1]! - cum[i]!;
    for (const [a, b] of [
      [x0, x1],
      [y0, y1],
    ] as const) {
      if (a === b) continue;
      const lo = Math.min(a, b);
      const hi = Math.max(a, b);
      for (let k = Math.ceil(lo / spacing); k * spacing < hi; k++) {
        const t = (k * spacing - a) / (b - a);
        if (t > 0 && t <= 1) out.push(cum[i]! + len * t);
      }
    }
  }
  return out.sort((p, q) => p - q);
}
