// Marching squares: isolines of a canvas-sized scalar field, chained into polylines.
//
// Samples sit at pixel centres: sample (i, j) is at world (x0 + i + 0.5, y0 + j + 0.5). A sample
// is inside a level when value >= level (NaN is never inside). Each cell edge with one inside
// and one outside end is crossed once, at the linear interpolation t = (level - va) / (vb - va)
// measured from the edge's left/top sample, so two tiles holding the same samples produce the
// very same vertex. Saddle cells join their inside corners when the average of the four corners
// is inside. Lines run with the inside (higher values) on their right on screen (y down): a ring
// around a maximum winds clockwise, like polygon exteriors elsewhere in tilegraph.

/** Isolines of one level: closed rings repeat their first vertex; open lines end at the field border. */
export interface Isolines {
  lines: Float64Array[];
  /** Per line: 3 for open lines (both ends cut by the canvas border, no caps), 0 for closed rings. */
  cutEnds: number[];
}

/** Cells per run of a cell row with a precomputed sample range (Contourer.spanLo / spanHi). */
const SPAN = 16;

/** At most this many interval levels per render; more is almost surely a unit mistake in `interval`. */
export const MAX_LEVELS = 1000;

// Cell corners in clockwise order a (top-left), b (top-right), c (bottom-right), d (bottom-left);
// case bit k is set when corner k is inside. Local edge k runs from corner k to corner k+1:
// 0 top, 1 right, 2 bottom, 3 left. SEGMENTS[(case << 1) | centreInside] lists [from, to] pairs.
const SEGMENTS: readonly (readonly number[])[] = (() => {
  const table: number[][] = [];
  for (let c = 0; c < 16; c++) {
    for (let centre = 0; centre < 2; centre++) {
      const inside = (k: number) => ((c >> (k & 3)) & 1) === 1;
      const crossings = [0, 1, 2, 3].filter((k) => inside(k) !== inside(k + 1));
      const segs: number[] = [];
      // Walking clockwise, a line starts where the walk leaves the inside (inside on its right)
      // and ends at an edge where the walk re-enters: the next such edge when the saddle's centre
      // is inside (the inside corners join), else the previous one (each inside corner cut off).
      crossings.forEach((k, n) => {
        if (!inside(k)) return;
        const m = crossings.length;
        const to = crossings[(centre ? n + 1 : n - 1 + m) % m]!;
        segs.push(k, to);
      });
      table.push(segs);
    }
  }
  return table;
})();

/**
 * Finite minimum and maximum of a field; [Infinity, -Infinity] when it has no finite value. NaN
 * compares false and keeps the bound, as does a value equal to it (the first of 0 and -0 stays).
 * Selects, not branches: V8 compiles them branch-free (~3x faster on a DEM's field, whose
 * bounds move often early in the scan).
 */
export function fieldRange(data: ArrayLike<number>): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  const n = data.length;
  for (let i = 0; i < n; i++) {
    const v = data[i]!;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
  return [lo, hi];
}

/**
 * The levels base + k * interval lying in [lo, hi], ascending. Each level is computed from its k
 * (never accumulated), so every tile names a level by the same number.
 */
export function intervalLevels(base: number, interval: number, lo: number, hi: number, maxCount = MAX_LEVELS): number[] {
  if (!(interval > 0) || !(lo <= hi) || !Number.isFinite(base)) return [];
  let k0 = Math.ceil((lo - base) / interval);
  let k1 = Math.floor((hi - base) / interval);
  // The divisions may round across an integer: settle k0 and k1 on the levels themselves.
  while (base + k0 * interval < lo) k0++;
  while (base + (k0 - 1) * interval >= lo) k0--;
  while (base + k1 * interval > hi) k1--;
  while (base + (k1 + 1) * interval <= hi) k1++;
  const count = k1 - k0 + 1;
  if (count <= 0) return [];
  if (count > maxCount)
    throw new RangeError(
      `${count} contour levels lie in [${lo}, ${hi}] at interval ${interval} (at most ${maxCount}); raise 'interval' or bound the levels with 'min'/'max'`,
    );
  const out: number[] = [];
  for (let k = k0; k <= k1; k++) out.push(base + k * interval);
  return out;
}

/** Sorted, de-duplicated finite levels. */
export function normalizeLevels(levels: readonly number[]): number[] {
  const s = levels.filter(Number.isFinite).sort((a, b) => a - b);
  return s.filter((v, i) => i === 0 || v !== s[i - 1]);
}

/**
 * The edge link arrays (next: -1, incoming: 0 on every edge) of one Contourer, shared by every
 * Contourer of up to LINKS_MAX_EDGES edges: isolines() leaves them as it found them, so a render
 * neither allocates nor fills them (a 270 px terrain canvas has 145,000 edges: 0.7 MB, ~0.4 ms of
 * allocation, fill and collection a tile). Larger canvases get their own (nothing large is kept).
 */
let LINKS: { next: Int32Array; incoming: Uint8Array; clean: boolean } | undefined;
export const LINKS_MAX_EDGES = 1 << 20;

function edgeLinks(edges: number): { next: Int32Array; incoming: Uint8Array } {
  if (edges > LINKS_MAX_EDGES) return { next: new Int32Array(edges).fill(-1), incoming: new Uint8Array(edges) };
  if (!LINKS || LINKS.next.length < edges) {
    const size = Math.min(LINKS_MAX_EDGES, Math.max(edges, 2 * (LINKS?.next.length ?? 0)));
    LINKS = { next: new Int32Array(size).fill(-1), incoming: new Uint8Array(size), clean: true };
  } else if (!LINKS.clean) {
    LINKS.next.fill(-1);
    LINKS.incoming.fill(0);
    LINKS.clean = true;
  }
  return LINKS;
}

/** Test hook: whether the shared link arrays hold no link (every next -1, every incoming 0). */
export function linksAreClean(): boolean {
  if (!LINKS) return true;
  return LINKS.next.every((v) => v === -1) && LINKS.incoming.every((v) => v === 0);
}

/**
 * Contourer's run ranges (spanLo / spanHi): each sample row's ranges once, then each cell row's as
 * the union of its two sample rows. Its own function, not the constructor's loop: V8 optimises a
 * small plain function as a unit.
 */
function spanRanges(data: ArrayLike<number>, width: number, height: number, spans: number, spanLo: Float64Array, spanHi: Float64Array): [number, number] {
  // The field's finite range on the way (fieldRange's: the runs visit the samples in scan order,
  // a shared column again after its first visit, and < keeps the first of equal values).
  let fLo = Infinity;
  let fHi = -Infinity;
  let prevLo = new Float64Array(spans);
  let prevHi = new Float64Array(spans);
  let rowLo = new Float64Array(spans);
  let rowHi = new Float64Array(spans);
  for (let y = 0; y < height; y++) {
    for (let r = 0; r < spans; r++) {
      // Selects, not branches (fieldRange); a NaN makes the run's low -Infinity once it is scanned.
      let lo = Infinity;
      let hi = -Infinity;
      let nan = false;
      const end = Math.min(width - 1, (r + 1) * SPAN);
      for (let i = r * SPAN, o = y * width + i; i <= end; i++, o++) {
        const v = data[o]!;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        nan = nan || v !== v;
      }
      fLo = lo < fLo ? lo : fLo;
      fHi = hi > fHi ? hi : fHi;
      rowLo[r] = nan ? -Infinity : lo;
      rowHi[r] = hi;
    }
    if (y > 0) {
      const base = (y - 1) * spans;
      for (let r = 0; r < spans; r++) {
        spanLo[base + r] = Math.min(prevLo[r]!, rowLo[r]!);
        spanHi[base + r] = Math.max(prevHi[r]!, rowHi[r]!);
      }
    }
    const tl = prevLo;
    prevLo = rowLo;
    rowLo = tl;
    const th = prevHi;
    prevHi = rowHi;
    rowHi = th;
  }
  return [fLo, fHi];
}

/** Marching squares over one field; scratch arrays are reused across the levels of one render. */
export class Contourer {
  private readonly data: ArrayLike<number>;
  private readonly W: number;
  private readonly H: number;
  private readonly x0: number;
  private readonly y0: number;
  /** Number of horizontal edges; vertical edge ids follow them. */
  private readonly nH: number;
  private readonly next: Int32Array;
  private readonly incoming: Uint8Array;
  private starts: Int32Array;
  private pts: Float64Array;
  /**
   * Per run of SPAN cells of a cell row (row-major, so visiting runs in order keeps scan order):
   * the highest finite sample and the lowest sample (NaN as -Infinity: never inside) over the run's
   * corners. Only runs with lo < level <= hi can hold a crossed cell; the rest are skipped.
   */
  private readonly spanLo: Float64Array;
  private readonly spanHi: Float64Array;
  private readonly spans: number;
  /** The field's finite minimum and maximum, as fieldRange gives them (the same values and zeros). */
  readonly range: [number, number];

  constructor(data: ArrayLike<number>, width: number, height: number, x0: number, y0: number) {
    this.data = data;
    this.W = width;
    this.H = height;
    this.x0 = x0;
    this.y0 = y0;
    this.nH = height * Math.max(0, width - 1);
    const edges = this.nH + Math.max(0, height - 1) * width;
    const links = edgeLinks(edges);
    this.next = links.next;
    this.incoming = links.incoming;
    this.starts = new Int32Array(1024);
    this.pts = new Float64Array(1024);
    this.spans = Math.ceil(Math.max(0, width - 1) / SPAN);
    const n = Math.max(0, height - 1) * this.spans;
    this.spanLo = new Float64Array(n);
    this.spanHi = new Float64Array(n);
    this.range = this.spans > 0 ? spanRanges(data, width, height, this.spans, this.spanLo, this.spanHi) : fieldRange(data);
  }

  /** Isolines of one level, in scan order of their first segment. */
  isolines(level: number): Isolines {
    const { data, W, H, next, incoming, spanLo, spanHi, spans } = this;
    const out: Isolines = { lines: [], cutEnds: [] };
    if (W < 2 || H < 2) return out;
    // Every link set below is consumed by the follows at the end, so the arrays are clean again
    // when this returns; a throw in between leaves them marked dirty (edgeLinks refills them).
    const shared = LINKS !== undefined && LINKS.next === next;
    if (shared) LINKS!.clean = false;
    let nStarts = 0;
    for (let j = 0; j < H - 1; j++) {
      for (let r = 0; r < spans; r++) {
        if (!(spanLo[j * spans + r]! < level && spanHi[j * spans + r]! >= level)) continue;
        const iEnd = Math.min(W - 1, (r + 1) * SPAN);
        for (let i = r * SPAN; i < iEnd; i++) {
          const o = j * W + i;
          const c = (data[o]! >= level ? 1 : 0) | (data[o + 1]! >= level ? 2 : 0) | (data[o + W + 1]! >= level ? 4 : 0) | (data[o + W]! >= level ? 8 : 0);
          if (c === 0 || c === 15) continue;
          let centre = 0;
          if (c === 5 || c === 10) centre = (data[o]! + data[o + 1]! + data[o + W + 1]! + data[o + W]!) / 4 >= level ? 1 : 0;
          const segs = SEGMENTS[(c << 1) | centre]!;
          for (let s = 0; s < segs.length; s += 2) {
            const from = this.edgeId(i, j, segs[s]!);
            const to = this.edgeId(i, j, segs[s + 1]!);
            next[from] = to;
            incoming[to] = 1;
            if (nStarts === this.starts.length) {
              const grown = new Int32Array(nStarts * 2);
              grown.set(this.starts);
              this.starts = grown;
            }
            this.starts[nStarts++] = from;
          }
        }
      }
    }
    // Open lines first (they start at an edge nothing leads into), then the rings left over.
    for (let s = 0; s < nStarts; s++) {
      const e = this.starts[s]!;
      if (next[e]! >= 0 && !incoming[e]) this.follow(e, level, false, out);
    }
    for (let s = 0; s < nStarts; s++) {
      const e = this.starts[s]!;
      if (next[e]! >= 0) this.follow(e, level, true, out);
    }
    if (shared) LINKS!.clean = true;
    return out;
  }

  /** Global id of local edge k (0 top, 1 right, 2 bottom, 3 left) of cell (i, j). */
  private edgeId(i: number, j: number, k: number): number {
    const W = this.W;
    switch (k) {
      case 0:
        return j * (W - 1) + i;
      case 2:
        return (j + 1) * (W - 1) + i;
      case 3:
        return this.nH + j * W + i;
      default:
        return this.nH + j * W + i + 1;
    }
  }

  /** Walks one chain from edge `start`, consuming its links, and emits it when it is not degenerate. */
  private follow(start: number, level: number, closed: boolean, out: Isolines): void {
    const { next, incoming } = this;
    let n = 0;
    const push = (e: number) => {
      if (n + 2 > this.pts.length) {
        const grown = new Float64Array(this.pts.length * 2);
        grown.set(this.pts);
        this.pts = grown;
      }
      this.crossing(e, level, n);
      // Crossings at a sample exactly on the level coincide: keep one.
      if (n === 0 || this.pts[n] !== this.pts[n - 2] || this.pts[n + 1] !== this.pts[n - 1]) n += 2;
    };
    push(start);
    let e = start;
    for (;;) {
      const to = next[e]!;
      next[e] = -1;
      if (to < 0 || to === start) break;
      incoming[to] = 0;
      push(to);
      e = to;
    }
    incoming[start] = 0;
    const pts = this.pts;
    if (closed) {
      while (n >= 4 && pts[n - 2] === pts[0] && pts[n - 1] === pts[1]) n -= 2;
      if (n < 6) return;
      const ring = new Float64Array(n + 2);
      ring.set(pts.subarray(0, n));
      ring[n] = pts[0]!;
      ring[n + 1] = pts[1]!;
      out.lines.push(ring);
      out.cutEnds.push(0);
    } else {
      if (n < 4) return;
      out.lines.push(pts.slice(0, n));
      out.cutEnds.push(3);
    }
  }

  /** Writes the crossing of `level` on global edge e into pts[at], pts[at + 1] (world pixels). */
  private crossing(e: number, level: number, at: number): void {
    const { data, W } = this;
    let a: number;
    let b: number;
    let i: number;
    let j: number;
    const horizontal = e < this.nH;
    if (horizontal) {
      j = Math.floor(e / (W - 1));
      i = e - j * (W - 1);
      a = j * W + i;
      b = a + 1;
    } else {
      const v = e - this.nH;
      j = Math.floor(v / W);
      i = v - j * W;
      a = j * W + i;
      b = a + W;
    }
    const va = data[a]!;
    let t = (level - va) / (data[b]! - va);
    if (!(t >= 0 && t <= 1)) t = 0.5; // a NaN end: put the crossing mid-edge
    const x = this.x0 + i + 0.5;
    const y = this.y0 + j + 0.5;
    this.pts[at] = horizontal ? x + t : x;
    this.pts[at + 1] = horizontal ? y : y + t;
  }
}
