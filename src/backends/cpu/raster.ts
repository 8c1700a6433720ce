// CPU raster helpers: allocation and cropping of canvas-sized buffers.
import type { Canvas, Raster, ScalarField, Sprite, Value } from '../../types.js';
import { acquire, acquireUniform, release } from './pool.js';
import { isZeroPixel, uniformOf } from './uniform.js';

/**
 * Hand a rendered raster the caller is done with back to the buffer pool, so the next render
 * reuses its memory instead of allocating (and later collecting) a fresh canvas: hosts call it
 * once the tile is encoded. The raster must not be read afterwards.
 */
export function releaseRaster(r: Raster): void {
  release(r.data);
}

/** A transparent canvas-sized raster (pooled buffer, zeroed). */
export function newRaster(width: number, height: number): Raster {
  return { kind: 'raster', width, height, data: acquire(width * height * 4) };
}

/** A canvas-sized raster whose every pixel the caller writes (not zeroed). */
export function newRasterUninit(width: number, height: number): Raster {
  return { kind: 'raster', width, height, data: acquire(width * height * 4, false) };
}

/** A per-pixel op's CPU side: `kernel` writes every pixel of a fresh raster of `src`'s size from `src`. */
export function mapPixels(src: Raster, kernel: (src: Float32Array, dst: Float32Array) => void): Raster {
  const out = newRasterUninit(src.width, src.height);
  kernel(src.data, out.data);
  return out;
}

/** An all-zero scalar field (pooled buffer). */
export function newField(width: number, height: number): ScalarField {
  return { kind: 'scalar-field', width, height, data: acquire(width * height) };
}

/** Copy the part of a canvas-sized buffer (`channels` per pixel) covered by `to`; outside `from` reads 0. */
export function cropData(data: Float32Array, channels: number, from: Canvas, to: Canvas): Float32Array {
  if (from.x0 === to.x0 && from.y0 === to.y0 && from.width === to.width && from.height === to.height) return data;
  const mark = channels === 4 ? uniformOf(data) : undefined;
  const inside = to.x0 >= from.x0 && to.y0 >= from.y0 && to.x0 + to.width <= from.x0 + from.width && to.y0 + to.height <= from.y0 + from.height;
  if (mark) {
    // One value everywhere: so is the crop where it lies inside `from` or the value is +0 (what
    // outside reads), the same pixels without the copy.
    // A pooled canvas released holding the value comes without a fill (acquireUniform).
    if (inside || isZeroPixel(mark)) return acquireUniform(to.width * to.height * 4, mark);
  }
  // Inside `from` the rows below write every value: no zero fill first.
  const out = acquire(to.width * to.height * channels, !inside);
  const dx = to.x0 - from.x0;
  const dy = to.y0 - from.y0;
  const xs = Math.max(0, -dx);
  const xe = Math.min(to.width, from.width - dx);
  if (xe <= xs) return out;
  for (let y = 0; y < to.height; y++) {
    const sy = y + dy;
    if (sy < 0 || sy >= from.height) continue;
    const src = (sy * from.width + xs + dx) * channels;
    out.set(data.subarray(src, src + (xe - xs) * channels), (y * to.width + xs) * channels);
  }
  return out;
}

export function cropValue(value: Value, from: Canvas, to: Canvas): Value {
  switch (value.kind) {
    case 'raster':
      return { kind: 'raster', width: to.width, height: to.height, data: cropData(value.data, 4, from, to) };
    case 'scalar-field':
      return { kind: 'scalar-field', width: to.width, height: to.height, data: cropData(value.data, 1, from, to) };
    default:
      return value;
  }
}

export function cloneSprite(s: Sprite): Sprite {
  return { ...s, data: s.data.slice() };
}
