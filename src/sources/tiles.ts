// Tile math: which source tiles cover a canvas, and how their coordinates map to world pixels.
import type { Canvas } from '../types.js';

export interface SourceTileRef {
  /** Source zoom (<= the canvas zoom; over-zoomed above the source's maxzoom). */
  z: number;
  /** Unwrapped column (may be < 0 or >= 2^z across the antimeridian). */
  x: number;
  y: number;
  /** Column wrapped into [0, 2^z): the tile to load. */
  wx: number;
  /** World-pixel rectangle of the tile at the canvas zoom. */
  px0: number;
  py0: number;
  size: number;
}

/**
 * Source tiles at zoom `sz` covering a canvas; x wraps at the antimeridian, y clamps at the poles.
 * `buffer` (in 4096ths of a source tile) is how far each tile's own data reaches past its square:
 * a neighbour is taken only where the canvas reaches past that.
 */
export function coveringTiles(canvas: Canvas, sz: number, buffer = 0): SourceTileRef[] {
  const size = canvas.tileSize * Math.pow(2, canvas.z - sz);
  const n = 1 << sz;
  const b = (buffer / 4096) * size;
  // The canvas shrunk by the buffer (never below its centre line).
  const ix = Math.min(b, canvas.width / 2),
    iy = Math.min(b, canvas.height / 2);
  const x0 = canvas.x0 + ix,
    x1 = canvas.x0 + canvas.width - ix;
  const y0 = canvas.y0 + iy,
    y1 = canvas.y0 + canvas.height - iy;
  // An edge within rounding of a tile boundary does not reach into the next tile. The tolerance is
  // relative: world pixels reach tileSize * 2^30, where an absolute 1e-9 is below one unit in the
  // last place (at z16 with 512 px tiles already), and a one-tile canvas took four source tiles.
  const tx0 = Math.floor((x0 + edgeTolerance(x0)) / size);
  const tx1 = Math.max(tx0, Math.floor((x1 - edgeTolerance(x1)) / size));
  const ty0 = Math.max(0, Math.min(n - 1, Math.floor((y0 + edgeTolerance(y0)) / size)));
  const ty1 = Math.max(ty0, Math.min(n - 1, Math.floor((y1 - edgeTolerance(y1)) / size)));
  const out: SourceTileRef[] = [];
  for (let y = ty0; y <= ty1; y++) {
    for (let x = tx0; x <= tx1; x++) {
      out.push({ z: sz, x, y, wx: ((x % n) + n) % n, px0: x * size, py0: y * size, size });
    }
  }
  return out;
}

/**
 * How far a world-pixel coordinate may sit past a tile edge and still count as on it: about 450
 * units in the last place of `v` (0.05 px at z30 with 512 px tiles), and 1e-9 near zero.
 */
function edgeTolerance(v: number): number {
  return Math.max(1e-9, Math.abs(v) * 1e-13);
}

export function tileKey(z: number, x: number, y: number): string {
  return `${z}/${x}/${y}`;
}

/** Longitude/latitude of a world pixel at zoom z (Web Mercator). */
export function pixelToLngLat(px: number, py: number, z: number, tileSize: number): [number, number] {
  const world = tileSize * Math.pow(2, z);
  const lng = (px / world) * 360 - 180;
  const n = Math.PI - (2 * Math.PI * py) / world;
  return [lng, (180 / Math.PI) * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n)))];
}

export function lngLatToPixel(lng: number, lat: number, z: number, tileSize: number): [number, number] {
  const world = tileSize * Math.pow(2, z);
  const s = Math.sin((Math.max(-85.0511287798, Math.min(85.0511287798, lat)) * Math.PI) / 180);
  return [((lng + 180) / 360) * world, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world];
}

/** Expand a tile URL template: {z} {x} {y}, {-y} (TMS row), {quadkey}; `tms` flips {y}. */
export function expandTemplate(template: string, z: number, x: number, y: number, scheme: 'xyz' | 'tms' = 'xyz'): string {
  const tmsY = (1 << z) - 1 - y;
  return template.replace(/\{(z|x|y|-y|quadkey)\}/g, (_, k: string) => {
    if (k === 'z') return String(z);
    if (k === 'x') return String(x);
    if (k === 'y') return String(scheme === 'tms' ? tmsY : y);
    if (k === '-y') return String(tmsY);
    let q = '';
    for (let i = z; i > 0; i--) {
      const m = 1 << (i - 1);
      q += String((x & m ? 1 : 0) + (y & m ? 2 : 0));
    }
    return q;
  });
}

/**
 * Lng/lat bounds [west, south, east, north] as a tile range at zoom z (inclusive; west > east
 * crosses the antimeridian, and then x0 >= x1). A bound on a tile edge takes the tile on its
 * inner side; zero-width (or zero-height) bounds on an edge take the tiles on both sides of it.
 */
export function boundsTileRange(bounds: readonly number[], z: number): { x0: number; y0: number; x1: number; y1: number } {
  const n = 1 << z;
  const [w, s, e, nn] = bounds as [number, number, number, number];
  const [px0, py0] = lngLatToPixel(w, nn, z, 1);
  const [px1, py1] = lngLatToPixel(e, s, z, 1);
  const clampT = (v: number) => Math.max(0, Math.min(n - 1, v));
  let x0 = clampT(Math.floor(px0)),
    x1 = clampT(Math.ceil(px1) - 1);
  let y0 = clampT(Math.floor(py0)),
    y1 = clampT(Math.ceil(py1) - 1);
  // Only a zero-width range on an edge (floor(k) = k > ceil(k) - 1) gives x1 < x0 without crossing.
  if (w <= e && x1 < x0) [x0, x1] = [x1, x0];
  if (y1 < y0) [y0, y1] = [y1, y0];
  return { x0, y0, x1, y1 };
}

/** Whether tile z/x/y (x wrapped) intersects lng/lat bounds. */
export function tileInBounds(bounds: readonly number[] | undefined, z: number, x: number, y: number): boolean {
  if (!bounds) return true;
  const r = boundsTileRange(bounds, z);
  if (y < r.y0 || y > r.y1) return false;
  // West > east crosses the antimeridian: the columns from x0 east to the edge and from 0 to x1
  // (every column when both ends fall in one).
  return (bounds[0] as number) <= (bounds[2] as number) ? x >= r.x0 && x <= r.x1 : x >= r.x0 || x <= r.x1;
}
