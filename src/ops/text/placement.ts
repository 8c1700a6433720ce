// Label placement that every tile agrees on (docs/format.md, "Text placement").
//
// Candidates are ranked: higher priority first, then (polygon labels) the larger polygon, then a
// hash of the label's text and its anchor
// (Mercator units, x taken modulo the world so copies across the antimeridian rank alike), then
// the anchor itself. Two candidates conflict when any of their boxes (padded) overlap. Placement runs in
// `rounds` rounds: in each, every undecided candidate that outranks all its undecided neighbours is
// placed, and its neighbours are dropped; candidates still undecided after the last round are
// dropped. After r rounds the state of a candidate depends only on candidates at most 2r - 1
// conflicts away, and two conflicting candidates' anchors lie at most 2E apart (E: the farthest a
// label's boxes reach from its anchor, `max-extent`). So a label's fate is decided by the
// candidates within (2 rounds - 1) 2E of its anchor: every canvas holding those decides alike.
// With rounds large enough this is the greedy placement by rank that Mapnik and MapLibre make.

export interface Candidate {
  /** Anchor, world pixels. */
  x: number;
  y: number;
  priority: number;
  /** At equal priority, the larger first: a polygon label's polygon area (Mercator units); 0 otherwise. */
  weight?: number;
  /** Tie-break after priority and weight: a hash of the text and the anchor (hashLabel). */
  hash: number;
  /** Collision boxes, world pixels, padding included: [x0, y0, x1, y1] per box. */
  boxes: Float64Array;
  /**
   * outerBox(boxes), where the candidate carries it (plan.ts: candidates are shared by every canvas
   * whose margin holds them, each placing them again); computed from `boxes` where absent.
   */
  outer?: Float64Array;
}

/**
 * FNV-1a (32 bits) of the text and the anchor in Mercator units (the world is [0, 1)), x wrapped
 * into the world, at 2^-30: the same rank at any tile size and pixel ratio, and for every copy of
 * the world across the antimeridian.
 */
export function hashLabel(text: string, mx: number, my: number): number {
  let h = 0x811c9dc5;
  const mix = (v: number) => {
    h ^= v & 0xff;
    h = Math.imul(h, 0x01000193);
    h ^= (v >>> 8) & 0xff;
    h = Math.imul(h, 0x01000193);
    h ^= (v >>> 16) & 0xff;
    h = Math.imul(h, 0x01000193);
    h ^= (v >>> 24) & 0xff;
    h = Math.imul(h, 0x01000193);
  };
  for (let i = 0; i < text.length; i++) mix(text.charCodeAt(i));
  const q = 2 ** 30;
  mix(Math.round((((mx % 1) + 1) % 1) * q));
  mix(Math.round(my * q));
  return h >>> 0;
}

/** Whether a outranks b: priority, then weight, then hash, then the anchor (x, then y). */
export function outranks(a: Candidate, b: Candidate): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  const wa = a.weight ?? 0;
  const wb = b.weight ?? 0;
  if (wa !== wb) return wa > wb;
  if (a.hash !== b.hash) return a.hash < b.hash;
  if (a.x !== b.x) return a.x < b.x;
  return a.y < b.y;
}

function boxesOverlap(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i += 4) {
    for (let j = 0; j < b.length; j += 4) {
      if (a[i]! < b[j + 2]! && b[j]! < a[i + 2]! && a[i + 1]! < b[j + 3]! && b[j + 1]! < a[i + 3]!) return true;
    }
  }
  return false;
}

/**
 * The box around every box ([x0, y0, x1, y1]; NaN coordinates left out, as no overlap test passes
 * on them; Infinity and -Infinity where every coordinate is NaN or there is no box).
 */
export function outerBox(b: Float64Array): Float64Array {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < b.length; i += 4) {
    if (b[i]! < x0) x0 = b[i]!;
    if (b[i + 1]! < y0) y0 = b[i + 1]!;
    if (b[i + 2]! > x1) x1 = b[i + 2]!;
    if (b[i + 3]! > y1) y1 = b[i + 3]!;
  }
  return Float64Array.of(x0, y0, x1, y1);
}

/** Each candidate's outer box (outerBox: its own `outer` where it carries one) at 4 i. */
function outerBoxes(cands: readonly Candidate[]): Float64Array {
  const out = new Float64Array(cands.length * 4);
  for (let k = 0; k < cands.length; k++) {
    const c = cands[k]!;
    const o = c.outer ?? outerBox(c.boxes);
    out[k * 4] = o[0]!;
    out[k * 4 + 1] = o[1]!;
    out[k * 4 + 2] = o[2]!;
    out[k * 4 + 3] = o[3]!;
  }
  return out;
}

/**
 * boxesOverlap(cands[i].boxes, cands[j].boxes) with the outer boxes (outerBoxes) tested first: two
 * boxes overlap only where the outer boxes around them do, so a pair whose outer boxes are apart
 * (most neighbours of a line label's glyph boxes), and each box of i apart from j's outer box, is
 * answered without the box-by-box test. The same answers.
 */
function candidatesOverlap(a: Float64Array, b: Float64Array, outer: Float64Array, i: number, j: number): boolean {
  const bx0 = outer[j * 4]!;
  const by0 = outer[j * 4 + 1]!;
  const bx1 = outer[j * 4 + 2]!;
  const by1 = outer[j * 4 + 3]!;
  if (!(outer[i * 4]! < bx1 && bx0 < outer[i * 4 + 2]! && outer[i * 4 + 1]! < by1 && by0 < outer[i * 4 + 3]!)) return false;
  for (let p = 0; p < a.length; p += 4) {
    const ax0 = a[p]!;
    const ay0 = a[p + 1]!;
    const ax1 = a[p + 2]!;
    const ay1 = a[p + 3]!;
    if (!(ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1)) continue;
    for (let q = 0; q < b.length; q += 4) if (ax0 < b[q + 2]! && b[q]! < ax1 && ay0 < b[q + 3]! && b[q + 1]! < ay1) return true;
  }
  return false;
}

/** Most cells near() remembers having read for one label. */
const READ_MAX = 64;

/** A uniform grid over boxes: each box listed in every cell it meets. */
class Grid {
  private readonly cells = new Map<number, number[]>();
  constructor(private readonly cell: number) {}
  private each(b: Float64Array, visit: (key: number) => void): void {
    const c = this.cell;
    for (let i = 0; i < b.length; i += 4) {
      const x0 = Math.floor(b[i]! / c);
      const y0 = Math.floor(b[i + 1]! / c);
      const x1 = Math.floor(b[i + 2]! / c);
      const y1 = Math.floor(b[i + 3]! / c);
      // A small-integer key (fast Map lookups); cells that share one only cost an overlap test.
      for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) visit((Math.imul(x, 73856093) ^ Math.imul(y, 19349663)) & 0x3fffffff);
    }
  }
  add(id: number, b: Float64Array): void {
    this.each(b, (k) => {
      const l = this.cells.get(k);
      if (l) {
        if (l[l.length - 1] !== id) l.push(id);
      } else this.cells.set(k, [id]);
    });
  }
  /** Cells already read by the current near() (a label's glyph boxes mostly share cells). */
  private readonly read: number[] = [];
  /** Ids whose cells `b` meets (each once; the caller tests the overlap). Each cell is read once. */
  near(b: Float64Array, seen: Int32Array, stamp: number, out: number[]): void {
    out.length = 0;
    const read = this.read;
    read.length = 0;
    const c = this.cell;
    for (let i = 0; i < b.length; i += 4) {
      const x0 = Math.floor(b[i]! / c);
      const y0 = Math.floor(b[i + 1]! / c);
      const x1 = Math.floor(b[i + 2]! / c);
      const y1 = Math.floor(b[i + 3]! / c);
      for (let y = y0; y <= y1; y++)
        for (let x = x0; x <= x1; x++) {
          const k = (Math.imul(x, 73856093) ^ Math.imul(y, 19349663)) & 0x3fffffff;
          // Few cells per label: a short list (a huge box's cells, past READ_MAX, are just read again).
          if (read.length < READ_MAX) {
            if (read.includes(k)) continue;
            read.push(k);
          }
          const l = this.cells.get(k);
          if (!l) continue;
          for (let j = 0; j < l.length; j++) {
            const id = l[j]!;
            if (seen[id] === stamp) continue;
            seen[id] = stamp;
            out.push(id);
          }
        }
    }
  }
}

/** Cell size of the conflict grid, world pixels. */
const CELL = 64;

/** Most cells of place()'s dense conflict grid; a wider spread of boxes takes placeReference's map of cells. */
const DENSE_MAX_CELLS = 1 << 20;

/**
 * Which candidates are placed (true), after `rounds` rounds; candidates that overlap an `obstacles`
 * box (the placed labels of avoided nodes) are never placed. The conflicts are found through a
 * dense grid of CELL px cells over the boxes' extent (each cell's candidates in one Int32Array,
 * each candidate once per cell) and kept as one adjacency array: the same conflict pairs as
 * placeReference, hence the same decisions (a round reads only which neighbours are undecided and
 * outranked), without a Map or an array per cell and per candidate.
 */
export function place(cands: readonly Candidate[], rounds: number, obstacles?: Float64Array, wanted?: Uint8Array): boolean[] {
  const n = cands.length;
  if (wanted) return placeWanted(cands, rounds, obstacles, wanted) ?? place(cands, rounds, obstacles).map((p, i) => p && wanted[i] === 1);
  // Every box's cells [x0, y0, x1, y1] (NaN where its coordinates are: such a box meets no cell,
  // as in placeReference), candidate i's boxes at first[i] to first[i + 1], and the grid's extent.
  const first = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) first[i + 1] = first[i]! + (cands[i]!.boxes.length >> 2);
  const cells = new Float64Array(first[n]! * 4);
  let gx0 = Infinity;
  let gy0 = Infinity;
  let gx1 = -Infinity;
  let gy1 = -Infinity;
  for (let i = 0, q = 0; i < n; i++) {
    const b = cands[i]!.boxes;
    for (let k = 0; k + 3 < b.length; k += 4, q += 4) {
      const x0 = (cells[q] = Math.floor(b[k]! / CELL));
      const y0 = (cells[q + 1] = Math.floor(b[k + 1]! / CELL));
      const x1 = (cells[q + 2] = Math.floor(b[k + 2]! / CELL));
      const y1 = (cells[q + 3] = Math.floor(b[k + 3]! / CELL));
      if (x0 < gx0) gx0 = x0;
      if (y0 < gy0) gy0 = y0;
      if (x1 > gx1) gx1 = x1;
      if (y1 > gy1) gy1 = y1;
    }
  }
  const gw = gx1 - gx0 + 1;
  const gh = gy1 - gy0 + 1;
  if (!(n > 0 && gw > 0 && gh > 0 && gw * gh <= DENSE_MAX_CELLS)) return placeReference(cands, rounds, obstacles);
  const g: CellGrid = { first, cells, gx0, gy0, gw, gh, start: new Int32Array(0), ids: new Int32Array(0) };
  denseGrid(g);
  const state = new Uint8Array(n);
  if (obstacles?.length) dropObstructed(cands, obstacles, state, g);
  const adj = conflicts(cands, state, g);
  const placed: boolean[] = new Array(n).fill(false);
  const winners: number[] = [];
  for (let r = 0; r < rounds; r++) {
    winners.length = 0;
    for (let i = 0; i < n; i++) {
      if (state[i] !== 0) continue;
      let wins = true;
      for (let e = adj.start[i]!; e < adj.start[i + 1]!; e++) {
        const j = adj.list[e]!;
        if (state[j] === 0 && !outranks(cands[i]!, cands[j]!)) {
          wins = false;
          break;
        }
      }
      if (wins) winners.push(i);
    }
    if (!winners.length) break;
    for (const i of winners) {
      state[i] = 1;
      placed[i] = true;
    }
    for (const i of winners) for (let e = adj.start[i]!; e < adj.start[i + 1]!; e++) if (state[adj.list[e]!] === 0) state[adj.list[e]!] = 2;
  }
  return placed;
}

/** Cell size of placeWanted's grid of outer boxes, world pixels. */
const OUTER_CELL = 128;

/** A grid of the candidates' outer boxes: cell c (of gw x gh from gx0, gy0) lists its candidates at ids[start[c], start[c + 1]). */
interface OuterGrid {
  gx0: number;
  gy0: number;
  gw: number;
  gh: number;
  start: Int32Array;
  ids: Int32Array;
  /** 1 where the candidate's outer box is in the grid: 0 for one with no finite extent (a NaN), which overlaps nothing. */
  has: Uint8Array;
}

/** The grid of the outer boxes (a box with no finite extent, all NaN, in no cell); undefined past DENSE_MAX_CELLS. */
function outerGrid(outer: Float64Array, n: number): OuterGrid | undefined {
  const cell = new Int32Array(n * 4);
  const has = new Uint8Array(n);
  let gx0 = Infinity;
  let gy0 = Infinity;
  let gx1 = -Infinity;
  let gy1 = -Infinity;
  for (let k = 0; k < n; k++) {
    const x0 = Math.floor(outer[k * 4]! / OUTER_CELL);
    const y0 = Math.floor(outer[k * 4 + 1]! / OUTER_CELL);
    const x1 = Math.floor(outer[k * 4 + 2]! / OUTER_CELL);
    const y1 = Math.floor(outer[k * 4 + 3]! / OUTER_CELL);
    if (!(x0 <= x1 && y0 <= y1)) continue;
    if (!(x1 - x0 < 1024 && y1 - y0 < 1024)) return undefined;
    has[k] = 1;
    cell.set([x0, y0, x1, y1], k * 4);
    if (x0 < gx0) gx0 = x0;
    if (y0 < gy0) gy0 = y0;
    if (x1 > gx1) gx1 = x1;
    if (y1 > gy1) gy1 = y1;
  }
  const gw = gx0 <= gx1 ? gx1 - gx0 + 1 : 0;
  const gh = gy0 <= gy1 ? gy1 - gy0 + 1 : 0;
  if (!(gw * gh <= DENSE_MAX_CELLS)) return undefined;
  const start = new Int32Array(gw * gh + 1);
  for (let pass = 0; pass < 2; pass++) {
    const fill = pass ? start.slice(0, gw * gh) : start;
    const ids = pass ? new Int32Array(start[gw * gh]!) : undefined;
    for (let k = 0; k < n; k++) {
      if (!has[k]) continue;
      for (let y = cell[k * 4 + 1]! - gy0; y <= cell[k * 4 + 3]! - gy0; y++)
        for (let x = cell[k * 4]! - gx0, c = y * gw + x; x <= cell[k * 4 + 2]! - gx0; x++, c++) {
          if (ids) ids[fill[c]!++] = k;
          else start[c + 1]!++;
        }
    }
    if (!ids) for (let c = 0; c < gw * gh; c++) start[c + 1]! += start[c]!;
    else return { gx0, gy0, gw, gh, start, ids, has };
  }
  return undefined;
}

/**
 * place() where only the candidates with wanted[i] set are asked for (the others come back false):
 * the same rounds on the conflict graph, evaluated only where they can sway a wanted candidate.
 * After r rounds a candidate's state depends on those within 2r - 1 conflicts of it (a round reads
 * the neighbours' states, and a drop a neighbour's win, which reads its own neighbours), so round
 * r (1 to R) decides the candidates within 2 (R - r) conflicts of a wanted one, from states that are
 * exact within 2 (R - r) + 1; the conflicts (the same pairs as conflicts(), found by scanning the
 * outer boxes) are listed for the candidates within 2R - 2 only, obstacles tested for those within
 * 2R - 1. A server tile asks for the labels that reach it or that it publishes, about a quarter of
 * the candidates of its 448 px margin, and the conflicts of a third of them are read. The same flags
 * as place() for every wanted candidate.
 */
function placeWanted(cands: readonly Candidate[], rounds: number, obstacles: Float64Array | undefined, wanted: Uint8Array): boolean[] | undefined {
  const n = cands.length;
  const outer = outerBoxes(cands);
  const grid = outerGrid(outer, n);
  if (!grid) return undefined;
  const { gx0, gy0, gw, start, ids } = grid;
  // Six arrays of n in one buffer: seen, hop, from, to, then state and reached.
  const buffer = new ArrayBuffer(18 * n);
  const seen = new Int32Array(buffer, 0, n).fill(-1);
  // 0: undecided, 1: placed, 2: dropped (an obstacle or a placed neighbour); obstacles tested when reached.
  const state = new Uint8Array(buffer, 16 * n, n);
  const reached = new Uint8Array(buffer, 17 * n, n);
  const hop = new Int32Array(buffer, 4 * n, n);
  const order: number[] = [];
  const reach = (i: number, h: number) => {
    reached[i] = 1;
    hop[i] = h;
    order.push(i);
    if (obstacles?.length && obstructed(cands[i]!.boxes, outer, i, obstacles)) state[i] = 2;
  };
  for (let i = 0; i < n; i++) if (wanted[i]) reach(i, 0);
  // Each reached candidate within 2R - 2 conflicts lists its undecided neighbours at adj[from[k], to[k]).
  const far = 2 * rounds - 2;
  const from = new Int32Array(buffer, 8 * n, n);
  const to = new Int32Array(buffer, 12 * n, n);
  let adj = new Int32Array(256);
  let na = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    from[i] = na;
    to[i] = na;
    // (an outer box with no finite extent, a NaN in it, overlaps nothing: with every candidate's so,
    // the grid is empty and its origin infinite, and a walk over its rows would never end)
    if (hop[i]! > far || state[i] !== 0 || !grid.has[i]) continue;
    const a = cands[i]!.boxes;
    // Candidates whose outer boxes share a cell with i's (two boxes that overlap do), each once.
    seen[i] = i;
    const x0 = Math.floor(outer[i * 4]! / OUTER_CELL) - gx0;
    const y0 = Math.floor(outer[i * 4 + 1]! / OUTER_CELL) - gy0;
    const x1 = Math.floor(outer[i * 4 + 2]! / OUTER_CELL) - gx0;
    const y1 = Math.floor(outer[i * 4 + 3]! / OUTER_CELL) - gy0;
    for (let y = y0; y <= y1; y++)
      for (let x = x0, c = y * gw + x; x <= x1; x++, c++)
        for (let e = start[c]!; e < start[c + 1]!; e++) {
          const j = ids[e]!;
          if (seen[j] === i) continue;
          seen[j] = i;
          if (reached[j] && state[j] !== 0) continue;
          if (!candidatesOverlap(a, cands[j]!.boxes, outer, i, j)) continue;
          if (!reached[j]) {
            reach(j, hop[i]! + 1);
            if (state[j] !== 0) continue;
          }
          if (na === adj.length) {
            const grown = new Int32Array(adj.length * 2);
            grown.set(adj);
            adj = grown;
          }
          adj[na++] = j;
        }
    to[i] = na;
  }
  const winners: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    const limit = 2 * (rounds - r);
    winners.length = 0;
    // `order` is by hop: those within `limit` come first.
    for (let k = 0; k < order.length && hop[order[k]!]! <= limit; k++) {
      const i = order[k]!;
      if (state[i] !== 0) continue;
      let wins = true;
      for (let e = from[i]!; e < to[i]!; e++) {
        const j = adj[e]!;
        if (state[j] === 0 && !outranks(cands[i]!, cands[j]!)) {
          wins = false;
          break;
        }
      }
      if (wins) winners.push(i);
    }
    for (const i of winners) state[i] = 1;
    for (const i of winners) for (let e = from[i]!; e < to[i]!; e++) if (state[adj[e]!] === 0) state[adj[e]!] = 2;
  }
  const placed: boolean[] = new Array(n).fill(false);
  for (let i = 0; i < n; i++) if (wanted[i] && state[i] === 1) placed[i] = true;
  return placed;
}

/** Whether a candidate (boxes b, outer box k of `outer`) has a box overlapping an obstacle box (dropObstructed's test). */
function obstructed(b: Float64Array, outer: Float64Array, k: number, obstacles: Float64Array): boolean {
  const x0 = outer[k * 4]!;
  const y0 = outer[k * 4 + 1]!;
  const x1 = outer[k * 4 + 2]!;
  const y1 = outer[k * 4 + 3]!;
  for (let o = 0; o < obstacles.length; o += 4) {
    const ox0 = obstacles[o]!;
    const oy0 = obstacles[o + 1]!;
    const ox1 = obstacles[o + 2]!;
    const oy1 = obstacles[o + 3]!;
    // An inverted obstacle across cells meets no cell of dropObstructed's grid: it drops nothing there.
    if (Math.floor(ox0 / CELL) > Math.floor(ox1 / CELL) || Math.floor(oy0 / CELL) > Math.floor(oy1 / CELL)) continue;
    if (!(x0 < ox1 && ox0 < x1 && y0 < oy1 && oy0 < y1)) continue;
    for (let i = 0; i < b.length; i += 4) if (b[i]! < ox1 && ox0 < b[i + 2]! && b[i + 1]! < oy1 && oy0 < b[i + 3]!) return true;
  }
  return false;
}

/** Marks dropped (2) every candidate with a box overlapping an obstacle box (two boxes that overlap share a cell of the grid). */
function dropObstructed(cands: readonly Candidate[], obstacles: Float64Array, state: Uint8Array, grid: CellGrid): void {
  const { gx0, gy0, gw, gh } = grid;
  const tested = new Int32Array(cands.length).fill(-1);
  for (let o = 0; o < obstacles.length; o += 4) {
    const ox0 = obstacles[o]!;
    const oy0 = obstacles[o + 1]!;
    const ox1 = obstacles[o + 2]!;
    const oy1 = obstacles[o + 3]!;
    const x0 = Math.max(0, Math.floor(ox0 / CELL) - gx0);
    const y0 = Math.max(0, Math.floor(oy0 / CELL) - gy0);
    const x1 = Math.min(gw - 1, Math.floor(ox1 / CELL) - gx0);
    const y1 = Math.min(gh - 1, Math.floor(oy1 / CELL) - gy0);
    for (let y = y0; y <= y1; y++)
      for (let x = x0; x <= x1; x++) {
        const c = y * gw + x;
        for (let e = grid.start[c]!; e < grid.start[c + 1]!; e++) {
          const i = grid.ids[e]!;
          if (state[i] !== 0 || tested[i] === o) continue;
          tested[i] = o;
          const b = cands[i]!.boxes;
          for (let k = 0; k < b.length; k += 4)
            if (b[k]! < ox1 && ox0 < b[k + 2]! && b[k + 1]! < oy1 && oy0 < b[k + 3]!) {
              state[i] = 2;
              break;
            }
        }
      }
  }
}

/** place()'s grid: each box's cells (absolute), and gw x gh cells from (gx0, gy0) listing the candidates with a box in them (once, ascending): cell c's at ids[start[c], start[c + 1]). */
interface CellGrid {
  first: Int32Array;
  cells: Float64Array;
  gx0: number;
  gy0: number;
  gw: number;
  gh: number;
  start: Int32Array;
  ids: Int32Array;
}

/** Fills the grid's cell lists: two passes over the boxes' cells (count each candidate once per cell, then fill). */
function denseGrid(g: CellGrid): void {
  const { first, cells: bc, gx0, gy0, gw } = g;
  const n = first.length - 1;
  const cells = gw * g.gh;
  const start = new Int32Array(cells + 1);
  const last = new Int32Array(cells).fill(-1);
  for (let i = 0; i < n; i++)
    for (let q = first[i]! * 4; q < first[i + 1]! * 4; q += 4) {
      const x0 = bc[q]! - gx0;
      const x1 = bc[q + 2]! - gx0;
      const y1 = bc[q + 3]! - gy0;
      for (let y = bc[q + 1]! - gy0; y <= y1; y++)
        for (let x = x0, c = y * gw + x0; x <= x1; x++, c++) {
          if (last[c] === i) continue;
          last[c] = i;
          start[c + 1]!++;
        }
    }
  for (let c = 0; c < cells; c++) start[c + 1]! += start[c]!;
  const ids = new Int32Array(start[cells]!);
  const fill = start.slice(0, cells);
  last.fill(-1);
  for (let i = 0; i < n; i++)
    for (let q = first[i]! * 4; q < first[i + 1]! * 4; q += 4) {
      const x0 = bc[q]! - gx0;
      const x1 = bc[q + 2]! - gx0;
      const y1 = bc[q + 3]! - gy0;
      for (let y = bc[q + 1]! - gy0; y <= y1; y++)
        for (let x = x0, c = y * gw + x0; x <= x1; x++, c++) {
          if (last[c] === i) continue;
          last[c] = i;
          ids[fill[c]!++] = i;
        }
    }
  g.start = start;
  g.ids = ids;
}

/** The conflicting pairs of undecided candidates (any two of their boxes overlap), as one adjacency array: i's neighbours at list[start[i], start[i + 1]). */
function conflicts(cands: readonly Candidate[], state: Uint8Array, grid: CellGrid): { start: Int32Array; list: Int32Array } {
  const { first, cells: bc, gx0, gy0, gw } = grid;
  const n = cands.length;
  const outer = outerBoxes(cands);
  const seen = new Int32Array(n).fill(-1);
  const cellRead = new Int32Array(grid.start.length - 1).fill(-1);
  let pairs = new Int32Array(256);
  let np = 0;
  const degree = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    if (state[i] !== 0) continue;
    const a = cands[i]!.boxes;
    for (let q = first[i]! * 4; q < first[i + 1]! * 4; q += 4) {
      const x0 = bc[q]! - gx0;
      const x1 = bc[q + 2]! - gx0;
      const y1 = bc[q + 3]! - gy0;
      for (let y = bc[q + 1]! - gy0; y <= y1; y++)
        for (let x = x0, c = y * gw + x0; x <= x1; x++, c++) {
          if (cellRead[c] === i) continue;
          cellRead[c] = i;
          // A cell's ids ascend: those after i are at its end.
          for (let e = grid.start[c + 1]! - 1; e >= grid.start[c]!; e--) {
            const j = grid.ids[e]!;
            if (j <= i) break;
            if (seen[j] === i || state[j] !== 0) continue;
            seen[j] = i;
            if (!candidatesOverlap(a, cands[j]!.boxes, outer, i, j)) continue;
            if (np + 2 > pairs.length) {
              const grown = new Int32Array(pairs.length * 2);
              grown.set(pairs);
              pairs = grown;
            }
            pairs[np++] = i;
            pairs[np++] = j;
            degree[i + 1]!++;
            degree[j + 1]!++;
          }
        }
    }
  }
  for (let i = 0; i < n; i++) degree[i + 1]! += degree[i]!;
  const list = new Int32Array(degree[n]!);
  const fill = degree.slice(0, n);
  for (let p = 0; p < np; p += 2) {
    list[fill[pairs[p]!]!++] = pairs[p + 1]!;
    list[fill[pairs[p + 1]!]!++] = pairs[p]!;
  }
  return { start: degree, list };
}

/**
 * place() as first written (a Map of cells, adjacency lists): the tests' oracle for place(), which
 * must give the same answers.
 */
export function placeReference(cands: readonly Candidate[], rounds: number, obstacles?: Float64Array): boolean[] {
  const n = cands.length;
  const placed: boolean[] = new Array(n).fill(false);
  // 0: undecided, 1: placed, 2: dropped.
  const state = new Uint8Array(n);
  if (obstacles?.length) {
    const og = new Grid(CELL);
    const boxes: Float64Array[] = [];
    for (let i = 0; i < obstacles.length; i += 4) {
      const b = obstacles.subarray(i, i + 4);
      og.add(boxes.length, b);
      boxes.push(b);
    }
    const seen = new Int32Array(boxes.length).fill(-1);
    const near: number[] = [];
    for (let i = 0; i < n; i++) {
      og.near(cands[i]!.boxes, seen, i, near);
      if (near.some((o) => boxesOverlap(cands[i]!.boxes, boxes[o]!))) state[i] = 2;
    }
  }
  // Conflicts: one adjacency list per candidate.
  const grid = new Grid(CELL);
  for (let i = 0; i < n; i++) if (state[i] === 0) grid.add(i, cands[i]!.boxes);
  const adj: number[][] = new Array(n);
  for (let i = 0; i < n; i++) adj[i] = [];
  const seen = new Int32Array(n).fill(-1);
  const near: number[] = [];
  const outer = outerBoxes(cands);
  for (let i = 0; i < n; i++) {
    if (state[i] !== 0) continue;
    seen[i] = i;
    grid.near(cands[i]!.boxes, seen, i, near);
    // Each pair tested once (j > i), listed both ways.
    for (const j of near)
      if (j > i && state[j] === 0 && candidatesOverlap(cands[i]!.boxes, cands[j]!.boxes, outer, i, j)) {
        adj[i]!.push(j);
        adj[j]!.push(i);
      }
  }
  const winners: number[] = [];
  for (let r = 0; r < rounds; r++) {
    winners.length = 0;
    for (let i = 0; i < n; i++) {
      if (state[i] !== 0) continue;
      if (adj[i]!.every((j) => state[j] !== 0 || outranks(cands[i]!, cands[j]!))) winners.push(i);
    }
    if (!winners.length) break;
    for (const i of winners) {
      state[i] = 1;
      placed[i] = true;
    }
    for (const i of winners) for (const j of adj[i]!) if (state[j] === 0) state[j] = 2;
  }
  return placed;
}
