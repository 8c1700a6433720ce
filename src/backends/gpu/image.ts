/// <reference types="@webgpu/types" />
// GPU values: a raster (rgba16float, premultiplied sRGB) or scalar field (r32float) held in a
// pooled texture, seen through a view. Cropping makes a new view of the same texture (no copy):
// view pixel p reads texture pixel p + offset, and 0 outside the valid rect, as the CPU crop does.
import type { DeviceValue } from '../backend.js';

export type ImageKind = 'raster' | 'scalar-field';
export type ImageFormat = 'rgba16float' | 'r32float';

export const formatOf = (kind: ImageKind): ImageFormat => (kind === 'raster' ? 'rgba16float' : 'r32float');

/** A texture lent by the pool for one render, with its default view made once. */
export interface PooledTexture {
  texture: GPUTexture;
  view: GPUTextureView;
  format: GPUTextureFormat;
  width: number;
  height: number;
  bytes: number;
}

export class GpuImage implements DeviceValue {
  readonly onDevice = true as const;
  /** Texture rect [x0, y0, x1, y1) holding real data; reads outside it are 0. */
  readonly valid: readonly [number, number, number, number];

  constructor(
    readonly kind: ImageKind,
    readonly tex: PooledTexture,
    readonly width: number,
    readonly height: number,
    /** Texture coordinate of the view's top-left pixel. */
    readonly ox = 0,
    readonly oy = 0,
    valid?: readonly [number, number, number, number],
  ) {
    // A view never reads past its own window either: outside it the CPU array has no pixel.
    const [vx0, vy0, vx1, vy1] = valid ?? [0, 0, tex.width, tex.height];
    this.valid = [Math.max(vx0, ox), Math.max(vy0, oy), Math.min(vx1, ox + width), Math.min(vy1, oy + height)];
  }

  /** Views of one texture share it: the render loop tells shared storage by it. */
  get storage(): object {
    return this.tex;
  }

  /** A view `dx, dy` pixels further right/down, of another size; it reads 0 wherever this view had no pixel. */
  crop(dx: number, dy: number, width: number, height: number): GpuImage {
    return new GpuImage(this.kind, this.tex, width, height, this.ox + dx, this.oy + dy, this.valid);
  }

  /** Whether every pixel of the view is real data (so a plain texture copy reads it). */
  get isPlainRegion(): boolean {
    const [vx0, vy0, vx1, vy1] = this.valid;
    return vx0 === this.ox && vy0 === this.oy && vx1 === this.ox + this.width && vy1 === this.oy + this.height;
  }
}

export function isGpuImage(v: unknown): v is GpuImage {
  return v instanceof GpuImage;
}

/**
 * The CPU copy of a view, given the downloaded texture's data (`channels` floats per texel,
 * rows of `tex.width`): the same pixels the view reads on the GPU.
 */
export function viewToCpu(img: GpuImage, texData: Float32Array, channels: number): Float32Array {
  const out = new Float32Array(img.width * img.height * channels);
  const tw = img.tex.width;
  const [vx0, vy0, vx1, vy1] = img.valid;
  const xs = Math.max(0, vx0 - img.ox);
  const xe = Math.min(img.width, vx1 - img.ox);
  if (xe <= xs) return out;
  for (let y = 0; y < img.height; y++) {
    const ty = y + img.oy;
    if (ty < vy0 || ty >= vy1) continue;
    const src = (ty * tw + xs + img.ox) * channels;
    out.set(texData.subarray(src, src + (xe - xs) * channels), (y * img.width + xs) * channels);
  }
  return out;
}
