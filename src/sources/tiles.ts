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

/** Source tiles at zoom `sz` covering a canvas; x wraps at the antimeridian, y clamps at the poles. */
export function coveringTiles(canvas: Canvas, sz: number): SourceTileRef[] {
  const size = canvas.tileSize * Math.pow(2, canvas.z - sz);
  const n = 1 << sz;
  const tx0 = Math.floor(canvas.x0 / size);
  const tx1 = Math.floor((canvas.x0 + canvas.width - 1e-9) / size);
  const ty0 = Math.max(0, Math.floor(canvas.y0 / size));
  const ty1 = Math.min(n - 1, Math.floor((canvas.y0 + canvas.height - 1e-9) / size));
  const out: SourceTileRef[] = [];
  for (let y = ty0; y <= ty1; y++) {
    for (let x = tx0; x <= tx1; x++) {
      out.push({ z: sz, x, y, wx: ((x % n) + n) % n, px0: x * size, py0: y * size, size });
    }
  }
  return out;
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
