// Polyline kernels: dash patterns, densification, polygon boundaries.
import { CUT_END, CUT_END_BITS, CUT_END_X, CUT_END_Y, CUT_START, CUT_START_BITS, CUT_START_X, CUT_START_Y } from './clip.js';

/** One piece of a line with its cut flags (FeatureGroup.cutEnds: CUT_START, CUT_END and their sides, src/geometry/clip.ts). */
export interface LinePiece {
  line: Float64Array;
  cut: number;
}

/**
 * Cuts a polyline into dashes. The pattern is `dash` on, `gap` off, and a point at distance s
 * along the line sits at pattern position (s + phase) mod (dash + gap): `phase` shifts the pattern
 * back along the line, as SVG's stroke-dashoffset does (negative values shift it forward).
 * `s0` is the distance of the line's first vertex from where the pattern is anchored.
 * Dash ends inside the line are real ends (caps are drawn); ends the input had keep their flags.
 */
export function dashLine(line: ArrayLike<number>, dash: number, gap: number, phase: number, cut = 0, s0 = 0, out: LinePiece[] = []): LinePiece[] {
  const n = line.length >> 1;
  if (n < 2) return out;
  const period = dash + gap;
  if (!(dash > 0)) return out;
  if (!(gap > 0) || !(period > 0)) {
    out.push({ line: Float64Array.from(line), cut });
    return out;
  }
  let pos = mod(s0 + phase, period); // pattern position at the current vertex
  let on = pos < dash;
  let cur: number[] = on ? [line[0]!, line[1]!] : [];
  let curCut = on ? cut & CUT_START_BITS : 0;
  for (let i = 1; i < n; i++) {
    const ax = line[i * 2 - 2]!,
      ay = line[i * 2 - 1]!,
      bx = line[i * 2]!,
      by = line[i * 2 + 1]!;
    const len = Math.hypot(bx - ax, by - ay);
    if (len === 0) continue;
    let t = 0; // distance done along this segment
    while (t < len) {
      const left = on ? dash - pos : period - pos; // distance to the next switch
      if (t + left >= len) {
        pos += len - t;
        t = len;
        break;
      }
      t += left;
      const f = t / len;
      const x = ax + (bx - ax) * f,
        y = ay + (by - ay) * f;
      if (on) {
        cur.push(x, y);
        if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: curCut });
        cur = [];
        pos = dash;
      } else {
        cur = [x, y];
        curCut = 0;
        pos = 0;
      }
      on = !on;
    }
    if (on) cur.push(bx, by);
  }
  if (on && cur.length >= 4) out.push({ line: new Float64Array(cur), cut: curCut | (cut & CUT_END_BITS) });
  return out;
}

function mod(a: number, m: number): number {
  const r = a % m;
  return r < 0 ? r + m : r;
}

/** Length of a polyline. */
export function lineLength(line: ArrayLike<number>): number {
  let L = 0;
  for (let i = 2; i + 1 < line.length; i += 2) L += Math.hypot(line[i]! - line[i - 2]!, line[i + 1]! - line[i - 1]!);
  return L;
}

/**
 * Inserts evenly spaced vertices so that no segment is longer than `target` (original vertices are
 * kept). `closed` densifies the closing edge of a ring too; `edgeFlags` (one per edge of a ring)
 * are carried over to the sub-edges. Returns the new coordinates and flags.
 */
export function densify(coords: ArrayLike<number>, target: number, closed: boolean, edgeFlags?: Uint8Array): { coords: Float64Array; flags?: Uint8Array } {
  const n = coords.length >> 1;
  const edges = closed ? n : n - 1;
  const splits = new Uint32Array(Math.max(0, edges));
  let total = n;
  for (let i = 0; i < edges; i++) {
    const j = (i + 1) % n;
    const len = Math.hypot(coords[j * 2]! - coords[i * 2]!, coords[j * 2 + 1]! - coords[i * 2 + 1]!);
    const k = len > target ? Math.ceil(len / target) - 1 : 0;
    splits[i] = k;
    total += k;
  }
  if (total === n) return { coords: Float64Array.from(coords), flags: edgeFlags };
  const out = new Float64Array(total * 2);
  const flags = edgeFlags ? new Uint8Array(total) : undefined;
  let w = 0;
  for (let i = 0; i < n; i++) {
    const x = coords[i * 2]!,
      y = coords[i * 2 + 1]!;
    out[w * 2] = x;
    out[w * 2 + 1] = y;
    if (flags) flags[w] = edgeFlags![i] ?? 0;
    w++;
    if (i >= edges) continue;
    const j = (i + 1) % n;
    const k = splits[i]!;
    const dx = (coords[j * 2]! - x) / (k + 1),
      dy = (coords[j * 2 + 1]! - y) / (k + 1);
    for (let s = 1; s <= k; s++) {
      out[w * 2] = x + dx * s;
      out[w * 2 + 1] = y + dy * s;
      if (flags) flags[w] = edgeFlags![i] ?? 0;
      w++;
    }
  }
  return { coords: out, flags };
}

/** Number of vertices densify() would produce (to check a bound before allocating). */
export function densifiedCount(coords: ArrayLike<number>, target: number, closed: boolean): number {
  const n = coords.length >> 1;
  const edges = closed ? n : n - 1;
  let total = n;
  for (let i = 0; i < edges; i++) {
    const j = (i + 1) % n;
    const len = Math.hypot(coords[j * 2]! - coords[i * 2]!, coords[j * 2 + 1]! - coords[i * 2 + 1]!);
    if (len > target) total += Math.ceil(len / target) - 1;
  }
  return total;
}

/**
 * The boundary of a polygon ring as polylines. Without flags: one closed polyline (its first vertex
 * repeated at the end). With edge flags (1 = an edge made by clipping), the ring breaks at flagged
 * edges and the pieces' ends there are cuts (no cap is drawn), with the side of the flagged edge
 * (vertical or horizontal) when it is axis-aligned, as clipLine gives them.
 */
export function ringBoundary(ring: ArrayLike<number>, flags: Uint8Array | undefined, out: LinePiece[] = []): LinePiece[] {
  const n = ring.length >> 1;
  if (n < 2) return out;
  let start = -1;
  if (flags) for (let i = 0; i < n; i++) if (flags[i]) start = i;
  if (start < 0) {
    const line = new Float64Array(n * 2 + 2);
    line.set(ring as ArrayLike<number>);
    line[n * 2] = ring[0]!;
    line[n * 2 + 1] = ring[1]!;
    out.push({ line, cut: 0 });
    return out;
  }
  // The side of flagged edge i: vertical (x side), horizontal (y side) or neither.
  const side = (i: number, xBit: number, yBit: number) => {
    const j = (i + 1) % n;
    const dx = Math.abs(ring[j * 2]! - ring[i * 2]!);
    const dy = Math.abs(ring[j * 2 + 1]! - ring[i * 2 + 1]!);
    return dy > 0 && dx <= 1e-9 * dy ? xBit : dx > 0 && dy <= 1e-9 * dx ? yBit : 0;
  };
  // Walk the edges after the last flagged one, once round; flagged edges end the current piece.
  let cur: number[] = [];
  let startCut = CUT_START | side(start, CUT_START_X, CUT_START_Y);
  for (let s = 1; s <= n; s++) {
    const i = (start + s) % n;
    if (flags![i]) {
      if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: startCut | CUT_END | side(i, CUT_END_X, CUT_END_Y) });
      cur = [];
      startCut = CUT_START | side(i, CUT_START_X, CUT_START_Y);
      continue;
    }
    const j = (i + 1) % n;
    if (!cur.length) cur.push(ring[i * 2]!, ring[i * 2 + 1]!);
    cur.push(ring[j * 2]!, ring[j * 2 + 1]!);
  }
  if (cur.length >= 4) out.push({ line: new Float64Array(cur), cut: startCut | CUT_END });
  return out;
}
