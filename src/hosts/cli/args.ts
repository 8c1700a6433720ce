// Parsing of the CLI's address-like options: --tile, --bbox, --param, --shard, and bbox windows.
import { ParamError, type TileAddress, type Window } from '../../index.js';
import { MAX_PIXEL_RATIO } from '../../render/pixel-ratio.js';
import { lngLatToPixel } from '../../sources/tiles.js';
import { UsageError } from './exit.js';

/** Mercator's latitude limit: a bbox beyond it is clamped. */
export const MAX_LAT = 85.0511287798066;
/** Highest zoom the CLI accepts (world pixels stay exact doubles far beyond it). */
export const MAX_ZOOM = 24;

export type Bbox = [west: number, south: number, east: number, north: number];

const INT = /^-?\d+$/;

export function parseZoom(v: unknown, name = 'zoom'): number {
  const s = String(v);
  if (!INT.test(s) || Number(s) < 0 || Number(s) > MAX_ZOOM) throw new UsageError(`--${name} '${s}' is not an integer zoom in 0..${MAX_ZOOM}`);
  return Number(s);
}

/** --pixel-ratio: an integer 1..MAX_PIXEL_RATIO (MapLibre's @2x is 2). */
export function parsePixelRatio(v: unknown): number {
  const s = String(v ?? 1);
  if (!INT.test(s) || Number(s) < 1 || Number(s) > MAX_PIXEL_RATIO) throw new UsageError(`--pixel-ratio '${s}' is not an integer from 1 to ${MAX_PIXEL_RATIO}`);
  return Number(s);
}

/** A window at a pixel ratio: the window itself at 1, else with `pixelRatio` set (sizes in pixels scale by it). */
export function atPixelRatio(w: Window, ratio: number): Window {
  return ratio === 1 ? w : { ...w, pixelRatio: ratio };
}

export function parseTile(s: string): TileAddress {
  const m = /^(\d+)\/(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) throw new UsageError(`--tile '${s}' is not z/x/y (three non-negative integers)`);
  const [z, x, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (z > MAX_ZOOM) throw new UsageError(`--tile '${s}': zoom ${z} is above ${MAX_ZOOM}`);
  const n = 2 ** z;
  if (x >= n || y >= n) throw new UsageError(`--tile '${s}' is outside the world: at zoom ${z}, x and y run from 0 to ${n - 1}`);
  return { z, x, y };
}

export function parseBbox(s: string): Bbox {
  const parts = s.split(',').map((p) => p.trim());
  const nums = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || nums.some((n) => !Number.isFinite(n))) {
    throw new UsageError(`--bbox '${s}' is not west,south,east,north (four numbers in decimal degrees)`);
  }
  const [w, so, e, n] = nums as Bbox;
  if (w < -180 || e > 180 || so < -90 || n > 90) throw new UsageError(`--bbox '${s}': longitudes must be in -180..180 and latitudes in -90..90`);
  // west > east: the box crosses the antimeridian (170,-10,-170,10 is 20 degrees wide).
  if (w === e) throw new UsageError(`--bbox '${s}': west and east are equal (the box has no width)`);
  if (!(so < n)) throw new UsageError(`--bbox '${s}': south must be less than north`);
  return [w, Math.max(so, -MAX_LAT), e, Math.min(n, MAX_LAT)];
}

/** `--param name=value` (repeatable) into overrides; the last of a repeated name wins. */
export function parseParams(list: readonly string[] | undefined): Record<string, string> {
  // No prototype: '--param __proto__=1' is a name like any other (and not a declared param).
  const out = Object.create(null) as Record<string, string>;
  for (const item of list ?? []) {
    const i = item.indexOf('=');
    if (i <= 0) throw new ParamError([{ pointer: '', param: item, message: `--param '${item}' is not name=value` }]);
    out[item.slice(0, i)] = item.slice(i + 1);
  }
  return out;
}

export function parseShard(s: string | undefined): { index: number; count: number } {
  if (s === undefined) return { index: 0, count: 1 };
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) throw new UsageError(`--shard '${s}' is not i/n with 0 <= i < n`);
  return { index: Number(m[1]), count: Number(m[2]) };
}

// Projected edges within 1e-6 px of a pixel boundary snap to it, so a bbox given by tile edges
// (which round-trip through degrees with tiny float error) yields exactly those tiles' pixels.
const SNAP = 1e-6;
const floorSnap = (v: number) => Math.floor(v + SNAP);
const ceilSnap = (v: number) => Math.ceil(v - SNAP);

/**
 * The pixel window of a bbox at a zoom: the world-pixel rectangle from floor of the north-west
 * corner to ceil of the south-east corner (world = tileSize * 2^z pixels, Web Mercator).
 */
export function bboxWindow(b: Bbox, z: number, tileSize: number): Window {
  const [px0, py0] = lngLatToPixel(b[0], b[3], z, tileSize);
  // Across the antimeridian the window runs past the east edge of the world; sources wrap x.
  const [px1, py1] = lngLatToPixel(b[0] > b[2] ? b[2] + 360 : b[2], b[1], z, tileSize);
  const x0 = floorSnap(px0);
  const y0 = floorSnap(py0);
  return { z, x0, y0, width: Math.max(1, ceilSnap(px1) - x0), height: Math.max(1, ceilSnap(py1) - y0), tileSize };
}

/** The tile ranges (inclusive) covering a bbox at zoom z: two when it crosses the antimeridian (west part first). */
export function bboxTileRanges(b: Bbox, z: number): { x0: number; y0: number; x1: number; y1: number }[] {
  if (b[0] <= b[2]) return [bboxTileRange(b, z)];
  const east = bboxTileRange([b[0], b[1], 180, b[3]], z);
  const west = bboxTileRange([-180, b[1], b[2], b[3]], z);
  // A box so wide that its parts meet covers every column once.
  if (west.x1 >= east.x0) return [{ ...east, x0: 0, x1: 2 ** z - 1 }];
  return [east, west];
}

/** The tile range (inclusive) covering a bbox (west < east) at zoom z. */
export function bboxTileRange(b: Bbox, z: number): { x0: number; y0: number; x1: number; y1: number } {
  const n = 2 ** z;
  const [fx0, fy0] = lngLatToPixel(b[0], b[3], z, 1);
  const [fx1, fy1] = lngLatToPixel(b[2], b[1], z, 1);
  const clamp = (v: number) => Math.max(0, Math.min(n - 1, v));
  const x0 = clamp(floorSnap(fx0));
  const y0 = clamp(floorSnap(fy0));
  return { x0, y0, x1: Math.max(x0, clamp(ceilSnap(fx1) - 1)), y1: Math.max(y0, clamp(ceilSnap(fy1) - 1)) };
}

/** Longitude of a box's centre, across the antimeridian too (170..-170 -> 180). */
export function bboxCenterLng(b: Bbox): number {
  if (b[0] <= b[2]) return (b[0] + b[2]) / 2;
  const c = (b[0] + b[2] + 360) / 2;
  return c > 180 ? c - 360 : c;
}

/** Edges of tile z/x/y in degrees: [west, south, east, north]. */
export function tileBbox(z: number, x: number, y: number): Bbox {
  const n = 2 ** z;
  const lng = (t: number) => (t / n) * 360 - 180;
  const lat = (t: number) => (180 / Math.PI) * Math.atan(Math.sinh(Math.PI * (1 - (2 * t) / n)));
  return [lng(x), lat(y + 1), lng(x + 1), lat(y)];
}

/**
 * Join `--bbox -10,35,30,60` into `--bbox=-10,35,30,60`: a value starting with a minus sign
 * (western or southern coordinates) would otherwise be read as short flags.
 */
export function joinNegativeValues(argv: readonly string[], options: readonly string[] = ['--bbox']): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    if (options.includes(a) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}
