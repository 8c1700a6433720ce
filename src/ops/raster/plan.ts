// MapLibre's raster paint (its raster.fragment.glsl and raster_program.ts, written out): hue
// rotation by spin weights, saturation towards the channel mean, contrast around mid-grey,
// brightness as a remap of [0, 1] onto [brightness-min, brightness-max], alpha times opacity.
import type { Raster } from '../../types.js';

export interface RasterPaint {
  opacity: number;
  brightnessMin: number;
  brightnessMax: number;
  saturation: number;
  contrast: number;
  /** Degrees. */
  hueRotate: number;
}

export function spinWeights(degrees: number): [number, number, number] {
  const a = (degrees * Math.PI) / 180;
  const s = Math.sin(a);
  const c = Math.cos(a);
  return [(2 * c + 1) / 3, (-Math.sqrt(3) * s - c + 1) / 3, (Math.sqrt(3) * s - c + 1) / 3];
}

export const contrastFactor = (c: number): number => (c > 0 ? 1 / (1 - c) : 1 + c);
export const saturationFactor = (s: number): number => (s > 0 ? 1 - 1 / (1.001 - s) : -s);

/** Whether the paint leaves colours as they are (only the opacity may apply). */
export function colourIdentity(p: RasterPaint): boolean {
  return p.brightnessMin === 0 && p.brightnessMax === 1 && p.saturation === 0 && p.contrast === 0 && p.hueRotate % 360 === 0;
}

/** Apply the paint in place to a premultiplied raster. */
export function paintRaster(r: Raster, p: RasterPaint): void {
  const d = r.data;
  const op = Math.min(1, Math.max(0, p.opacity));
  if (colourIdentity(p)) {
    if (op !== 1) for (let i = 0; i < d.length; i++) d[i]! *= op;
    return;
  }
  const [w0, w1, w2] = spinWeights(p.hueRotate);
  const sat = saturationFactor(p.saturation);
  const con = contrastFactor(p.contrast);
  const lo = p.brightnessMin;
  const hi = p.brightnessMax;
  for (let i = 0; i < d.length; i += 4) {
    const a0 = d[i + 3]!;
    if (!(a0 > 0)) continue;
    const r0 = d[i]! / a0;
    const g0 = d[i + 1]! / a0;
    const b0 = d[i + 2]! / a0;
    // spin: (dot(rgb, w), dot(rgb, w.zxy), dot(rgb, w.yzx))
    let r = r0 * w0 + g0 * w1 + b0 * w2;
    let g = r0 * w2 + g0 * w0 + b0 * w1;
    let b = r0 * w1 + g0 * w2 + b0 * w0;
    // saturation: towards the mean of the colour before the spin (as the shader reads color.rgb)
    const avg = (r0 + g0 + b0) / 3;
    r += (avg - r) * sat;
    g += (avg - g) * sat;
    b += (avg - b) * sat;
    r = (r - 0.5) * con + 0.5;
    g = (g - 0.5) * con + 0.5;
    b = (b - 0.5) * con + 0.5;
    const a = a0 * op;
    // mix(lo, hi, c) times alpha; a unorm target clamps each premultiplied value.
    d[i] = Math.min(a, Math.max(0, (lo + (hi - lo) * r) * a));
    d[i + 1] = Math.min(a, Math.max(0, (lo + (hi - lo) * g) * a));
    d[i + 2] = Math.min(a, Math.max(0, (lo + (hi - lo) * b) * a));
    d[i + 3] = a;
  }
}
