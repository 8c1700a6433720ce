// `dem` source: Terrarium or Mapbox Terrain-RGB tiles (PNG or WebP, 256 or 512 px) from `tiles`
// templates or a raster PMTiles archive, decoded to metres and resampled bilinearly at canvas
// pixel centres. Neighbouring tiles are loaded only where a sample's 2x2 footprint reaches them.
import { SourceError } from '../errors.js';
import { acquire } from '../backends/cpu/pool.js';
import { imageSize } from './image-size.js';
import type { SourceDecl } from '../style/types.js';
import type { Canvas, ScalarField } from '../types.js';
import { checkTileImageSize, decodeTileImage, imageTileSet, tileSetZooms } from './image-tiles.js';
import { tileKey } from './tiles.js';
import type { DecodedElevation, DecodedImage, DemSource, SourceContext } from './types.js';
import { fetchTileBytes, tileError } from './vector.js';

export type DemEncoding = 'mapbox' | 'terrarium';

/** Defaults of the `dem` fields. */
const DEM_DEFAULTS = {
  encoding: 'mapbox' as DemEncoding, // Mapbox Terrain-RGB, as in the MapLibre style spec
  tileSize: 512, // pixels per tile image, as in the MapLibre style spec
  minzoom: 0,
  maxzoom: 15, // public Terrain-RGB and Terrarium sets end at z15; above, tiles are over-zoomed
};

/** RGBA8 pixels to metres; fully transparent pixels are no data (NaN). */
export function decodeElevation(img: DecodedImage, encoding: DemEncoding): Float32Array {
  const { data, width, height } = img;
  const out = new Float32Array(width * height);
  const n = out.length;
  if (LITTLE_ENDIAN && data.byteOffset % 4 === 0) {
    // One 32-bit word a pixel (R | G << 8 | B << 16 | A << 24): the same values, a quarter of the loads.
    const px = new Uint32Array(data.buffer, data.byteOffset, n);
    if (encoding === 'terrarium') {
      for (let i = 0; i < n; i++) {
        const v = px[i]!;
        out[i] = v >>> 24 === 0 ? NaN : (v & 255) * 256 + ((v >>> 8) & 255) + ((v >>> 16) & 255) / 256 - 32768;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const v = px[i]!;
        out[i] = v >>> 24 === 0 ? NaN : -10000 + ((v & 255) * 65536 + ((v >>> 8) & 255) * 256 + ((v >>> 16) & 255)) * 0.1;
      }
    }
    return out;
  }
  for (let i = 0, p = 0; i < n; i++, p += 4) {
    const r = data[p]!,
      g = data[p + 1]!,
      b = data[p + 2]!;
    if (data[p + 3] === 0) out[i] = NaN;
    else out[i] = encoding === 'terrarium' ? r * 256 + g + b / 256 - 32768 : -10000 + (r * 65536 + g * 256 + b) * 0.1;
  }
  return out;
}

const noDecoder = (name: string, t: string) => new SourceError(name, t, 'no image decoder is bound to this renderer (pass decodeImage to Renderer.create)');

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

interface DemFetcher {
  readonly key: string;
  info(): Promise<{ minzoom: number; maxzoom: number }>;
  fetch(z: number, x: number, y: number, signal: AbortSignal): Promise<Uint8Array | undefined>;
}

class DemTileSource implements DemSource {
  readonly name: string;
  readonly type = 'dem' as const;
  minzoom: number;
  maxzoom: number;
  readonly encoding: DemEncoding;
  readonly tileSize: number;
  private readonly ctx: SourceContext;
  private readonly fetcher: DemFetcher;
  private readonly attr: () => Promise<string[]>;

  constructor(name: string, decl: SourceDecl, ctx: SourceContext, fetcher: DemFetcher, attribution: () => Promise<string[]>) {
    this.name = name;
    this.ctx = ctx;
    this.fetcher = fetcher;
    this.attr = attribution;
    this.encoding = decl.encoding === 'terrarium' ? 'terrarium' : DEM_DEFAULTS.encoding;
    this.tileSize = typeof decl.tileSize === 'number' ? decl.tileSize : DEM_DEFAULTS.tileSize;
    this.minzoom = decl.minzoom ?? DEM_DEFAULTS.minzoom;
    this.maxzoom = decl.maxzoom ?? DEM_DEFAULTS.maxzoom;
  }

  attribution(): Promise<string[]> {
    return this.attr();
  }

  /** Elevations of one source tile (cached), or null when the tile is absent. */
  private tile(z: number, x: number, y: number, signal?: AbortSignal): Promise<Float32Array | null> {
    const key = `${this.ctx.cachePrefix}dem|${this.fetcher.key}|${this.encoding}|${tileKey(z, x, y)}`;
    return this.ctx.cache.get(
      key,
      async (sig) => {
        const t = tileKey(z, x, y);
        const bytes = await fetchTileBytes(this.name, t, () => this.fetcher.fetch(z, x, y, sig));
        if (!bytes) return { value: null, bytes: 64 };
        const direct = this.ctx.loader?.decodeElevation;
        const decode = this.ctx.decodeImage;
        if (!decode && !direct) throw noDecoder(this.name, t);
        // Sizes from the header first: a wrong or huge image is refused before its pixels are allocated.
        const head = imageSize(bytes);
        if (head) checkTileImageSize(this.name, t, this.tileSize, head.width, head.height);
        // The host's direct path to metres when it reads this image (the Node loader: RGB PNGs).
        if (direct) {
          let dem: DecodedElevation | undefined;
          try {
            dem = await direct.call(this.ctx.loader, bytes, this.encoding);
          } catch (e) {
            throw tileError(this.name, t, 'the tile is not a readable PNG or WebP image', e);
          }
          if (dem) {
            checkTileImageSize(this.name, t, this.tileSize, dem.width, dem.height);
            if (dem.data.length < dem.width * dem.height) throw new SourceError(this.name, t, 'the decoder returned fewer pixels than the image has');
            return { value: dem.data, bytes: dem.data.byteLength + 64 };
          }
        }
        if (!decode) throw noDecoder(this.name, t);
        const img = await decodeTileImage(this.name, t, this.tileSize, decode, bytes, 'PNG or WebP');
        const elev = decodeElevation(img, this.encoding);
        return { value: elev, bytes: elev.byteLength + 64 };
      },
      signal,
    );
  }

  async field(canvas: Canvas, signal?: AbortSignal): Promise<ScalarField> {
    const info = await tileSetZooms(this.name, () => this.fetcher.info());
    this.minzoom = info.minzoom;
    this.maxzoom = info.maxzoom;
    const { width, height } = canvas;
    // Every element is written below (NaN where no tile); pooled like the rasters (released after the last consumer).
    const out = acquire(width * height, false);
    const S = this.tileSize;
    // The source zoom whose pixels are at least as fine as the canvas's (k = 1 for matching sizes).
    const ideal = Math.max(0, Math.ceil(canvas.z + Math.log2(canvas.tileSize / S) - 1e-9));
    if (canvas.z < info.minzoom) {
      out.fill(NaN); // below the source's zoom range: no data, and nothing is loaded
      return { kind: 'scalar-field', width, height, data: out };
    }
    // Clamped to the source's range: a 512 px DEM whose only zoom is 10 serves 256 px tiles of
    // zoom 10 from itself (two source pixels per canvas pixel), not from a zoom 9 it lacks.
    const sz = Math.max(info.minzoom, Math.min(ideal, info.maxzoom));
    // Source pixels per canvas pixel; > 1 only at the minzoom clamp, < 1 when over-zoomed.
    const k = (S * Math.pow(2, sz)) / (canvas.tileSize * Math.pow(2, canvas.z));
    const rows = S * (1 << sz);
    const cols = axis(canvas.x0, width, k, -Infinity, Infinity);
    const rws = axis(canvas.y0, height, k, 0, rows - 1);
    // Source tiles under the footprint (x unwrapped here, wrapped when loaded; y clamped to the poles).
    const tx0 = Math.floor(cols.min / S),
      tx1 = Math.floor(cols.max / S);
    const ty0 = Math.floor(rws.min / S),
      ty1 = Math.floor(rws.max / S);
    const nx = tx1 - tx0 + 1;
    const n = 1 << sz;
    const jobs: Promise<Float32Array | null>[] = [];
    for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) jobs.push(this.tile(sz, ((tx % n) + n) % n, ty, signal));
    const tiles = await Promise.all(jobs);
    // Per column / row: grid cell and offset inside the tile of both footprint pixels.
    const cx = locate(cols, S, tx0),
      cy = locate(rws, S, ty0);
    resample(tiles, nx, S, cols, rws, cx, cy, out, width, height);
    return { kind: 'scalar-field', width, height, data: out };
  }
}

/**
 * The bilinear samples of the canvas into `out`, rows of `width`. A plain function, not inlined in
 * the async `field`: V8 compiles an async function's loop late and often runs it unoptimised,
 * every double boxed (7 MiB of garbage and ~3 ms per 270 px canvas); here it is optimised code.
 * Each source row's horizontal interpolation (`top` and `bottom` of resampleReference, in f64) is
 * computed once into a row buffer and shared by every canvas row that reads it (four canvas rows
 * a source row when a z9 DEM serves z11 tiles), then each canvas row is one vertical lerp of two
 * such rows: the same operations on the same values as resampleReference, so the same bits.
 */
export function resample(
  tiles: (Float32Array | null)[],
  nx: number,
  S: number,
  cols: Axis,
  rws: Axis,
  cx: ReturnType<typeof locate>,
  cy: ReturnType<typeof locate>,
  out: Float32Array,
  width: number,
  height: number,
): void {
  // One source pixel per canvas pixel on the same grid (the common tile render): rows are copies.
  const copyCols = alignedColumns(cols);
  // Two horizontally interpolated source rows, by global source row (-1: none yet).
  let rowA = new Float64Array(width),
    rowB = new Float64Array(width);
  let gA = -1,
    gB = -1;
  for (let j = 0; j < height; j++) {
    const fy = rws.f[j]!;
    if (copyCols && fy === 0) {
      copyRow(tiles, cy.tile0[j]! * nx, cy.off0[j]! * S, cx, S, out, j * width, width);
      continue;
    }
    const g0 = rws.i0[j]!;
    const g1 = fy > 0 ? rws.i1[j]! : g0;
    // Rows move down: the bottom row of one canvas row is usually the top row of a later one.
    if (g0 !== gA) {
      if (g0 === gB) {
        const t = rowA;
        rowA = rowB;
        rowB = t;
        gB = gA;
      } else horizontal(tiles, cy.tile0[j]! * nx, cy.off0[j]! * S, cols, cx, rowA, width);
      gA = g0;
    }
    const row = j * width;
    if (!(fy > 0)) {
      for (let i = 0; i < width; i++) out[row + i] = rowA[i]!;
      continue;
    }
    if (g1 !== gB) {
      horizontal(tiles, cy.tile1[j]! * nx, cy.off1[j]! * S, cols, cx, rowB, width);
      gB = g1;
    }
    for (let i = 0; i < width; i++) {
      const top = rowA[i]!;
      out[row + i] = top + (rowB[i]! - top) * fy;
    }
  }
}

/** One source row interpolated along x at every canvas column (resampleReference's `top`), in f64. */
function horizontal(
  tiles: (Float32Array | null)[],
  tileRow: number,
  rowOffset: number,
  cols: Axis,
  cx: ReturnType<typeof locate>,
  into: Float64Array,
  width: number,
): void {
  const f = cols.f;
  for (let i = 0; i < width; i++) {
    const fx = f[i]!;
    const a = sample(tiles[tileRow + cx.tile0[i]!], rowOffset + cx.off0[i]!);
    into[i] = fx > 0 ? a + (sample(tiles[tileRow + cx.tile1[i]!], rowOffset + cx.off1[i]!) - a) * fx : a;
  }
}

/** resample as one loop over canvas pixels (four samples each): the tests' reference for resample, bit for bit. */
export function resampleReference(
  tiles: (Float32Array | null)[],
  nx: number,
  S: number,
  cols: Axis,
  rws: Axis,
  cx: ReturnType<typeof locate>,
  cy: ReturnType<typeof locate>,
  out: Float32Array,
  width: number,
  height: number,
): void {
  const copyCols = alignedColumns(cols);
  for (let j = 0; j < height; j++) {
    const fy = rws.f[j]!;
    if (copyCols && fy === 0) {
      copyRow(tiles, cy.tile0[j]! * nx, cy.off0[j]! * S, cx, S, out, j * width, width);
      continue;
    }
    const tr0 = cy.tile0[j]! * nx,
      tr1 = cy.tile1[j]! * nx;
    const oy0 = cy.off0[j]! * S,
      oy1 = cy.off1[j]! * S;
    const row = j * width;
    for (let i = 0; i < width; i++) {
      const fx = cols.f[i]!;
      const a = sample(tiles[tr0 + cx.tile0[i]!], oy0 + cx.off0[i]!);
      let top = a;
      if (fx > 0) top = a + (sample(tiles[tr0 + cx.tile1[i]!], oy0 + cx.off1[i]!) - a) * fx;
      let v = top;
      if (fy > 0) {
        const c = sample(tiles[tr1 + cx.tile0[i]!], oy1 + cx.off0[i]!);
        const bottom = fx > 0 ? c + (sample(tiles[tr1 + cx.tile1[i]!], oy1 + cx.off1[i]!) - c) * fx : c;
        v = top + (bottom - top) * fy;
      }
      out[row + i] = v;
    }
  }
}

/** True when every column takes one whole source pixel and consecutive columns take consecutive pixels. */
function alignedColumns(a: Axis): boolean {
  const n = a.i0.length;
  const first = a.i0[0]!;
  for (let i = 0; i < n; i++) if (a.f[i] !== 0 || a.i0[i] !== first + i) return false;
  return true;
}

/** One canvas row of an aligned window: runs of a tile row copied, NaN where the tile is absent. */
function copyRow(
  tiles: (Float32Array | null)[],
  tileRow: number,
  rowOffset: number,
  cx: ReturnType<typeof locate>,
  S: number,
  out: Float32Array,
  at: number,
  width: number,
): void {
  for (let i = 0; i < width; ) {
    const off = cx.off0[i]!;
    const n = Math.min(width - i, S - off);
    const t = tiles[tileRow + cx.tile0[i]!];
    if (t) out.set(t.subarray(rowOffset + off, rowOffset + off + n), at + i);
    else out.fill(NaN, at + i, at + i + n);
    i += n;
  }
}

function sample(t: Float32Array | null | undefined, i: number): number {
  return t ? t[i]! : NaN;
}

export interface Axis {
  /** First footprint pixel (global source index) per canvas pixel, and the second (i0 + 1, or i0 when f = 0). */
  i0: Float64Array;
  i1: Float64Array;
  /** Weight of the second pixel. */
  f: Float64Array;
  min: number;
  max: number;
}

/** Bilinear footprint along one axis (shared with the raster source): canvas pixel centre c maps to source position c*k - 0.5 (pixel-centre index space). */
export function axis(origin: number, length: number, k: number, lo: number, hi: number): Axis {
  const i0 = new Float64Array(length),
    i1 = new Float64Array(length),
    f = new Float64Array(length);
  let min = Infinity,
    max = -Infinity;
  for (let i = 0; i < length; i++) {
    const u = (origin + i + 0.5) * k - 0.5;
    let a = Math.floor(u);
    let w = u - a;
    let b = w > 0 ? a + 1 : a;
    // Beyond the poles the edge row repeats.
    if (a < lo) {
      a = lo;
      b = lo;
      w = 0;
    }
    if (b > hi) {
      b = hi;
      if (a > hi) a = hi;
      if (a === b) w = 0;
    }
    i0[i] = a;
    i1[i] = b;
    f[i] = w;
    if (a < min) min = a;
    if (b > max) max = b;
  }
  return { i0, i1, f, min, max };
}

/** Grid cell (relative to the first tile) and in-tile offset of both footprint pixels. */
export function locate(a: Axis, S: number, t0: number) {
  const n = a.i0.length;
  const tile0 = new Int32Array(n),
    tile1 = new Int32Array(n),
    off0 = new Int32Array(n),
    off1 = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const g0 = a.i0[i]!,
      g1 = a.i1[i]!;
    const t0i = Math.floor(g0 / S),
      t1i = Math.floor(g1 / S);
    tile0[i] = t0i - t0;
    off0[i] = g0 - t0i * S;
    tile1[i] = t1i - t0;
    off1[i] = g1 - t1i * S;
  }
  return { tile0, tile1, off0, off1 };
}

export function createDemSource(name: string, decl: SourceDecl, ctx: SourceContext): DemTileSource {
  const set = imageTileSet(name, decl, ctx, { minzoom: DEM_DEFAULTS.minzoom, maxzoom: DEM_DEFAULTS.maxzoom }, 'dem');
  return new DemTileSource(name, decl, ctx, set, () => set.attribution());
}
