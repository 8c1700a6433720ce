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
  /** Ids whose cells `b` meets (each once; the caller tests the overlap). */
  near(b: Float64Array, seen: Int32Array, stamp: number, out: number[]): void {
    out.length = 0;
    this.each(b, (k) => {
      const l = this.cells.get(k);
      if (!l) return;
      for (const id of l) {
        if (seen[id] === stamp) continue;
        seen[id] = stamp;
        out.push(id);
      }
    });
  }
}

/** Cell size of the conflict grid, world pixels. */
const CELL = 64;

/**
 * Which candidates are placed (true), after `rounds` rounds; candidates that overlap an `obstacles`
 * box (the placed labels of avoided nodes) are never placed.
 */
export function place(cands: readonly Candidate[], rounds: number, obstacles?: Float64Array): boolean[] {
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
  for (let i = 0; i < n; i++) {
    if (state[i] !== 0) continue;
    seen[i] = i;
    grid.near(cands[i]!.boxes, seen, i, near);
    // Each pair tested once (j > i), listed both ways.
    for (const j of near)
      if (j > i && state[j] === 0 && boxesOverlap(cands[i]!.boxes, cands[j]!.boxes)) {
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
