// Dot lattices anchored to world pixels: cell (i, j) of size s covers [i s, (i+1) s) x [j s, (j+1) s)
// in world pixels at the render zoom, and every random draw of a cell is a hash of its world
// coordinates, the seed and the feature, so a dot is the same dot in every tile that shows it.
// The lattice goes round the world a whole number of times: the spacing asked for is snapped per
// zoom to s = W / n (n = round(W / spacing) cells across the world's width W), and the column
// index is hashed modulo n, so the dots continue across the antimeridian.
import { emptyBox, growBox } from './measure.js';

/** 32-bit avalanche mix (lowbias32, Chris Wellons). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A uniform number in [0, 1) from the cell, the seed, the feature key and a salt (one per draw). */
function cellRandom(i: number, j: number, seed: number, feature: number, salt: number): number {
  let h = mix(salt ^ 0x9e3779b9);
  h = mix(h ^ (i | 0));
  h = mix(h ^ (j | 0));
  h = mix(h ^ (seed | 0) ^ Math.floor(seed / 4294967296));
  h = mix(h ^ feature);
  return h / 4294967296;
}

/** A stable 32-bit key of a feature: its id, else its properties (same in every tile that holds it). */
export function featureKey(id: unknown, properties: Record<string, unknown>): number {
  const s = id !== undefined ? `id:${String(id)}` : JSON.stringify(properties);
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

const EARTH_CIRCUMFERENCE_M = 2 * Math.PI * 6378137;

/** Ground area in km² of one world-pixel square at world y (Web Mercator at `worldSize` pixels). */
function pixelAreaKm2(worldY: number, worldSize: number): number {
  const lat = Math.atan(Math.sinh(Math.PI * (1 - (2 * worldY) / worldSize)));
  const m = (EARTH_CIRCUMFERENCE_M * Math.cos(lat)) / worldSize;
  return (m * m) / 1e6;
}

/** The spacing snapped to a whole number of cells around a world `worldSize` pixels wide. */
export function worldLattice(spacing: number, worldSize: number): { spacing: number; columns: number } {
  const columns = Math.max(1, Math.round(worldSize / spacing));
  return { spacing: worldSize / columns, columns };
}

export interface DotLattice {
  /** Cell size, world pixels (worldLattice: worldSize / columns). */
  spacing: number;
  /** Cells across the world: column i is hashed as i modulo this. */
  columns: number;
  /** 0: dots at cell centres; 1: anywhere in the cell. */
  jitter: number;
  seed: number;
  /** World pixels across the whole world at the render zoom (tileSize * 2^z). */
  worldSize: number;
  /** Largest number of cells one call may visit (a bound, not a target). */
  maxCells: number;
}

/**
 * Dots of one polygon [exterior, ...holes] at `perKm2` dots per km²: each lattice cell holds at
 * most one candidate dot, present with probability min(1, perKm2 x cell area) and kept when it
 * falls inside the polygon; only cells meeting `clip` (world pixels) are visited.
 * Returns the number of cells visited (callers add these up against the bound).
 */
export function polygonDots(
  poly: readonly ArrayLike<number>[],
  perKm2: number,
  L: DotLattice,
  feature: number,
  clip: [number, number, number, number],
  out: number[],
): number {
  const ext = poly[0];
  if (!ext || ext.length < 6 || !(perKm2 > 0)) return 0;
  let [x0, y0, x1, y1] = growBox(emptyBox(), ext);
  x0 = Math.max(x0, clip[0]);
  y0 = Math.max(y0, clip[1]);
  x1 = Math.min(x1, clip[2]);
  y1 = Math.min(y1, clip[3]);
  if (x0 > x1 || y0 > y1) return 0;
  const s = L.spacing;
  const i0 = Math.floor(x0 / s),
    i1 = Math.floor(x1 / s),
    j0 = Math.floor(y0 / s),
    j1 = Math.floor(y1 / s);
  const cells = (i1 - i0 + 1) * (j1 - j0 + 1);
  if (cells > L.maxCells) return cells;
  // A dot of row j has its y in [j s, (j+1) s): only the edges spanning that band can cross its ray.
  const rows = edgeRows(poly, s, j0, j1);
  for (let j = j0; j <= j1; j++) {
    const p = Math.min(1, perKm2 * pixelAreaKm2((j + 0.5) * s, L.worldSize) * s * s);
    const edges = rows[j - j0]!;
    if (!edges.length) continue;
    for (let i = i0; i <= i1; i++) {
      const iw = ((i % L.columns) + L.columns) % L.columns;
      if (cellRandom(iw, j, L.seed, feature, 0) >= p) continue;
      const x = (i + 0.5 + L.jitter * (cellRandom(iw, j, L.seed, feature, 1) - 0.5)) * s;
      const y = (j + 0.5 + L.jitter * (cellRandom(iw, j, L.seed, feature, 2) - 0.5)) * s;
      if (insideEdges(edges, x, y)) out.push(x, y);
    }
  }
  return cells;
}

/** Per row of cells j0..j1 (height s), the edges [ax, ay, bx, by, ...] of every ring whose y-range meets the row. */
function edgeRows(poly: readonly ArrayLike<number>[], s: number, j0: number, j1: number): number[][] {
  const rows: number[][] = Array.from({ length: j1 - j0 + 1 }, () => []);
  for (const ring of poly) {
    const n = ring.length >> 1;
    for (let i = 0, k = n - 1; i < n; k = i++) {
      const ax = ring[k * 2]!,
        ay = ring[k * 2 + 1]!,
        bx = ring[i * 2]!,
        by = ring[i * 2 + 1]!;
      if (ay === by) continue; // a horizontal edge crosses no horizontal ray
      const ra = Math.max(j0, Math.floor(Math.min(ay, by) / s)),
        rb = Math.min(j1, Math.floor(Math.max(ay, by) / s));
      for (let r = ra; r <= rb; r++) rows[r - j0]!.push(ax, ay, bx, by);
    }
  }
  return rows;
}

/** Even-odd test of (x, y) against edges (the crossing rule of measure.ts insidePolygon). */
function insideEdges(e: readonly number[], x: number, y: number): boolean {
  let inside = false;
  for (let k = 0; k < e.length; k += 4) {
    const xj = e[k]!,
      yj = e[k + 1]!,
      xi = e[k + 2]!,
      yi = e[k + 3]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
