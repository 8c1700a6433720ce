// circle: a disk of premultiplied colour c x alpha(d), d the distance of a pixel's centre from the
// disk's centre, alpha(d) = clamp((R - d) / soft, 0, 1) with soft = max(R (1 - hardness), 1):
// opaque within R - soft, falling off linearly to 0 at R (at hardness 1 a one-pixel
// anti-aliased rim). Kind raster: centred on the requested window, R = radius-frac x tile size.
// Kind sprite: centred on the sprite, R = radius-frac x min(width, height).
import type { Canvas, Sprite, Window } from '../../types.js';
import type { OpContext } from '../types.js';

/** Sprite sides are bounded (docs/format.md, limits). */
export const MAX_SPRITE_PX = 1024;

export interface Disk {
  /** Premultiplied colour. */
  color: [number, number, number, number];
  radiusFrac: number;
  hardness: number;
}

const clamp01 = (v: number) => (v > 0 ? (v < 1 ? v : 1) : 0);

export function disk(ctx: Pick<OpContext, 'num' | 'color'>): Disk {
  const [r, g, b, a] = ctx.color('color');
  return { color: [r * a, g * a, b * a, a], radiusFrac: clamp01(ctx.num('radius-frac')), hardness: clamp01(ctx.num('hardness')) };
}

/** Radius and fall-off width in pixels. */
export function profile(radius: number, hardness: number): { radius: number; soft: number } {
  return { radius, soft: Math.max(radius * (1 - hardness), 1) };
}

/** Writes every pixel of a width x height premultiplied RGBA buffer: the disk centred at (cx, cy). */
function drawDisk(data: Float32Array, width: number, height: number, cx: number, cy: number, radius: number, soft: number, color: readonly number[]): void {
  const [r, g, b, a] = color as [number, number, number, number];
  const inv = 1 / soft;
  for (let y = 0; y < height; y++) {
    const dy = y + 0.5 - cy;
    for (let x = 0; x < width; x++) {
      const dx = x + 0.5 - cx;
      const k = clamp01((radius - Math.sqrt(dx * dx + dy * dy)) * inv);
      const i = (y * width + x) * 4;
      data[i] = r * k;
      data[i + 1] = g * k;
      data[i + 2] = b * k;
      data[i + 3] = a * k;
    }
  }
}

/** The raster kind's centre (canvas pixels) and radius: the window's centre, radius-frac x tile size. */
export function rasterGeometry(d: Disk, ctx: { canvas: Canvas; window: Window }): { cx: number; cy: number; radius: number; soft: number } {
  const cx = ctx.window.x0 - ctx.canvas.x0 + ctx.window.width / 2;
  const cy = ctx.window.y0 - ctx.canvas.y0 + ctx.window.height / 2;
  return { cx, cy, ...profile(d.radiusFrac * ctx.window.tileSize, d.hardness) };
}

export function rasterDisk(data: Float32Array, width: number, height: number, d: Disk, ctx: { canvas: Canvas; window: Window }): void {
  const { cx, cy, radius, soft } = rasterGeometry(d, ctx);
  drawDisk(data, width, height, cx, cy, radius, soft, d.color);
}

export function spriteDisk(d: Disk, width: number, height: number): Sprite {
  const data = new Float32Array(width * height * 4);
  const { radius, soft } = profile(d.radiusFrac * Math.min(width, height), d.hardness);
  drawDisk(data, width, height, width / 2, height / 2, radius, soft, d.color);
  return { kind: 'sprite', width, height, data };
}
