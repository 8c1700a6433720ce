// `raster` source: image tiles (PNG, JPEG, WebP; 256 or 512 px) from `tiles` templates, a
// `tilejson` or a raster PMTiles archive, resampled to a canvas: bilinear in premultiplied alpha
// (as a GPU samples a premultiplied texture) or nearest. Tiles are chosen as for `dem`: the zoom
// whose pixels are at least as fine as the canvas's, clamped to the source's range.
import { SourceError } from '../errors.js';
import { newRaster } from '../backends/cpu/raster.js';
import type { SourceDecl } from '../style/types.js';
import type { Canvas, Raster } from '../types.js';
import { axis, locate } from './dem.js';
import { imageSize } from './image-size.js';
import { checkTileImageSize, decodeTileImage, imageTileSet, tileSetZooms, type ImageTileSet } from './image-tiles.js';
import { tileKey } from './tiles.js';
import type { RasterSource, SourceContext } from './types.js';
import { fetchTileBytes } from './vector.js';

const RASTER_DEFAULTS = { tileSize: 512, minzoom: 0, maxzoom: 22 };

/** One decoded tile: premultiplied RGBA in [0, 1]. */
type Tile = Float32Array;

class RasterTileSource implements RasterSource {
  readonly name: string;
  readonly type = 'raster' as const;
  minzoom: number;
  maxzoom: number;
  readonly tileSize: number;
  private readonly ctx: SourceContext;
  private readonly set: ImageTileSet;

  constructor(name: string, decl: SourceDecl, ctx: SourceContext) {
    this.name = name;
    this.ctx = ctx;
    this.tileSize = typeof decl.tileSize === 'number' ? decl.tileSize : RASTER_DEFAULTS.tileSize;
    this.minzoom = decl.minzoom ?? RASTER_DEFAULTS.minzoom;
    this.maxzoom = decl.maxzoom ?? RASTER_DEFAULTS.maxzoom;
    this.set = imageTileSet(name, decl, ctx, RASTER_DEFAULTS, 'raster');
  }

  attribution(): Promise<string[]> {
    return this.set.attribution();
  }

  private tile(z: number, x: number, y: number, signal?: AbortSignal): Promise<Tile | null> {
    const key = `${this.ctx.cachePrefix}raster|${this.set.key}|${tileKey(z, x, y)}`;
    return this.ctx.cache.get(
      key,
      async (sig) => {
        const t = tileKey(z, x, y);
        const bytes = await fetchTileBytes(this.name, t, () => this.set.fetch(z, x, y, sig));
        if (!bytes) return { value: null, bytes: 64 };
        const decode = this.ctx.decodeImage;
        if (!decode) throw new SourceError(this.name, t, 'no image decoder is bound to this renderer (pass decodeImage to Renderer.create)');
        // Sizes from the header first: a wrong or huge image is refused before its pixels are allocated.
        const head = imageSize(bytes);
        if (head) checkTileImageSize(this.name, t, this.tileSize, head.width, head.height);
        const img = await decodeTileImage(this.name, t, this.tileSize, decode, bytes, 'PNG, JPEG or WebP');
        const out = premultiplied(img.data, img.width * img.height);
        return { value: out, bytes: out.byteLength + 64 };
      },
      signal,
    );
  }

  async image(canvas: Canvas, resampling: 'linear' | 'nearest', signal?: AbortSignal): Promise<Raster> {
    const info = await tileSetZooms(this.name, () => this.set.info(signal));
    this.minzoom = info.minzoom;
    this.maxzoom = info.maxzoom;
    const { width, height } = canvas;
    const out = newRaster(width, height);
    if (canvas.z < info.minzoom) return out;
    const S = this.tileSize;
    const ideal = Math.max(0, Math.ceil(canvas.z + Math.log2(canvas.tileSize / S) - 1e-9));
    const sz = Math.max(info.minzoom, Math.min(ideal, info.maxzoom));
    const k = (S * 2 ** sz) / (canvas.tileSize * 2 ** canvas.z);
    const rows = S * 2 ** sz;
    const cols = axis(canvas.x0, width, k, -Infinity, Infinity);
    const rws = axis(canvas.y0, height, k, 0, rows - 1);
    if (resampling === 'nearest') nearest(cols, canvas.x0, k), nearest(rws, canvas.y0, k);
    const tx0 = Math.floor(cols.min / S);
    const tx1 = Math.floor(cols.max / S);
    const ty0 = Math.floor(rws.min / S);
    const ty1 = Math.floor(rws.max / S);
    const nx = tx1 - tx0 + 1;
    const n = 2 ** sz;
    const jobs: Promise<Tile | null>[] = [];
    for (let ty = ty0; ty <= ty1; ty++) for (let tx = tx0; tx <= tx1; tx++) jobs.push(this.tile(sz, ((tx % n) + n) % n, ty, signal));
    const tiles = await Promise.all(jobs);
    const cx = locate(cols, S, tx0);
    const cy = locate(rws, S, ty0);
    resample(tiles, nx, S, cols, rws, cx, cy, canvas.y0, k, rows, out.data, width, height);
    return out;
  }
}

/**
 * The bilinear samples of the canvas into `d` (RGBA rows of `width`). A plain function, not inlined
 * in the async `image` (as the dem source's `resample`): V8 compiles an async function's loop late
 * and often runs it unoptimised, every double boxed.
 */
function resample(
  tiles: (Tile | null)[],
  nx: number,
  S: number,
  cols: ReturnType<typeof axis>,
  rws: ReturnType<typeof axis>,
  cx: ReturnType<typeof locate>,
  cy: ReturnType<typeof locate>,
  y0: number,
  k: number,
  rows: number,
  d: Float32Array,
  width: number,
  height: number,
): void {
  // Rows beyond the poles are transparent (the world ends there), not the edge row repeated.
  const inside = (j: number) => {
    const y = (y0 + j + 0.5) * k;
    return y >= 0 && y <= rows;
  };
  for (let j = 0; j < height; j++) {
    if (!inside(j)) continue;
    const fy = rws.f[j]!;
    const t0 = cy.tile0[j]! * nx;
    const t1 = cy.tile1[j]! * nx;
    const o0 = cy.off0[j]! * S;
    const o1 = cy.off1[j]! * S;
    for (let i = 0; i < width; i++) {
      const fx = cols.f[i]!;
      const p = (j * width + i) * 4;
      const a = tiles[t0 + cx.tile0[i]!];
      const b = tiles[t0 + cx.tile1[i]!];
      const c = tiles[t1 + cx.tile0[i]!];
      const e = tiles[t1 + cx.tile1[i]!];
      const ia = (o0 + cx.off0[i]!) * 4;
      const ib = (o0 + cx.off1[i]!) * 4;
      const ic = (o1 + cx.off0[i]!) * 4;
      const ie = (o1 + cx.off1[i]!) * 4;
      for (let q = 0; q < 4; q++) {
        const va = a ? a[ia + q]! : 0;
        const vb = b ? b[ib + q]! : 0;
        const vc = c ? c[ic + q]! : 0;
        const ve = e ? e[ie + q]! : 0;
        const top = va + (vb - va) * fx;
        const bottom = vc + (ve - vc) * fx;
        d[p + q] = top + (bottom - top) * fy;
      }
    }
  }
}

/** Straight 8-bit RGBA to premultiplied floats (a plain function for the reason `resample` gives). */
function premultiplied(d: Uint8Array | Uint8ClampedArray, n: number): Float32Array {
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n * 4; i += 4) {
    const a = d[i + 3]! / 255;
    out[i] = (d[i]! / 255) * a;
    out[i + 1] = (d[i + 1]! / 255) * a;
    out[i + 2] = (d[i + 2]! / 255) * a;
    out[i + 3] = a;
  }
  return out;
}

/** Nearest resampling: each canvas pixel takes the source pixel under its centre (weight 0 on the second). */
function nearest(a: ReturnType<typeof axis>, origin: number, k: number): void {
  for (let i = 0; i < a.i0.length; i++) {
    const u = Math.floor((origin + i + 0.5) * k);
    const clamped = Math.min(a.max, Math.max(a.min, u));
    a.i0[i] = clamped;
    a.i1[i] = clamped;
    a.f[i] = 0;
  }
}

export function createRasterSource(name: string, decl: SourceDecl, ctx: SourceContext): RasterTileSource {
  return new RasterTileSource(name, decl, ctx);
}
