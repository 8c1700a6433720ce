// hillshade on the CPU (the reference): Horn's 3x3 gradient of the elevation field, GDAL's shade
// value v in 1..255 (plan.ts), then colour = shadow + (highlight - shadow) v / 255 (premultiplied),
// then the accent colour laid over with coverage sin(slope). The defaults (shadow black, highlight
// white, no accent) give opaque grey v / 255: the `gdaldem hillshade` image.
import { acquire, release } from '../../backends/cpu/pool.js';
import { gdalShade, shadeRamp, type ShadeColours, type ShadeTerms } from './plan.js';
import { hillshadeSimd } from './simd.js';

/** field: (w + 2) x (h + 2) elevations (pad 1); invRes: per output row. Any NaN or infinity in a window: transparent. */
export function hillshade(field: Float32Array, w: number, h: number, invRes: Float64Array, t: ShadeTerms, col: ShadeColours): Float32Array {
  if (!t.multidirectional && !(col.accent[3] > 0)) {
    const out = acquire(w * h * 4, false);
    if (hillshadeSimd(field, w, h, invRes, t, col, out)) return out; // the same arithmetic in f32 (simd.ts)
    release(out);
    return hillshadeSingle(field, w, h, invRes, t, col);
  }
  return hillshadeReference(field, w, h, invRes, t, col);
}

/**
 * The default style's case (one light, no accent) as one tight loop: the 3x3 window slides along the
 * row in locals (three loads a pixel), one test for non-finite values. The same arithmetic in the
 * same order as hillshadeReference, so the same pixels.
 */
export function hillshadeSingle(field: Float32Array, w: number, h: number, invRes: Float64Array, t: ShadeTerms, col: ShadeColours): Float32Array {
  const out = acquire(w * h * 4, false);
  const sw = w + 2;
  const [sr, sg, sb, sa, dr, dg, db, da] = shadeRamp(col);
  const { squareZ, sinAlt254, cosAzCosAltZ254, sinAzCosAltZ254 } = t;
  for (let j = 0; j < h; j++) {
    const ew = invRes[j]!;
    const nw = -ew;
    let p0 = j * sw,
      p1 = p0 + sw,
      p2 = p1 + sw;
    let a0 = field[p0]!,
      a1 = field[p0 + 1]!,
      a3 = field[p1]!,
      a4 = field[p1 + 1]!,
      a6 = field[p2]!,
      a7 = field[p2 + 1]!;
    p0 += 2;
    p1 += 2;
    p2 += 2;
    for (let o = j * w * 4, end = o + w * 4; o < end; o += 4) {
      const a2 = field[p0++]!,
        a5 = field[p1++]!,
        a8 = field[p2++]!;
      const x = (a0 + a3 + a3 + a6 - (a2 + a5 + a5 + a8)) * ew;
      const y = (a6 + a7 + a7 + a8 - (a0 + a1 + a1 + a2)) * nw;
      const centre = a4;
      a0 = a1;
      a1 = a2;
      a3 = a4;
      a4 = a5;
      a6 = a7;
      a7 = a8;
      // x - x is 0 for a finite x and NaN otherwise: one test for NaN or infinity in x, y or the centre.
      if (x - x + (y - y) + (centre - centre) !== 0) {
        out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
        continue;
      }
      const c = (sinAlt254 - (y * cosAzCosAltZ254 - x * sinAzCosAltZ254)) / Math.sqrt(1 + squareZ * (x * x + y * y));
      const g = c <= 0 ? 1 / 255 : (1 + c) / 255;
      out[o] = sr + dr * g;
      out[o + 1] = sg + dg * g;
      out[o + 2] = sb + db * g;
      out[o + 3] = sa + da * g;
    }
  }
  return out;
}

/** The general kernel (multidirectional light, accent colour): the reference the fast paths match. */
export function hillshadeReference(field: Float32Array, w: number, h: number, invRes: Float64Array, t: ShadeTerms, col: ShadeColours): Float32Array {
  const out = acquire(w * h * 4, false);
  const sw = w + 2;
  const [sr, sg, sb, sa, dr, dg, db, da] = shadeRamp(col);
  const [ar, ag, ab, aa] = col.accent;
  // The single-light value inlined (gdalShade's first branch): the hot loop of the default style.
  const single = !t.multidirectional;
  const { squareZ, sinAlt254, cosAzCosAltZ254, sinAzCosAltZ254 } = t;
  for (let j = 0; j < h; j++) {
    const ew = invRes[j]!;
    for (let i = 0; i < w; i++) {
      const c = (j + 1) * sw + i + 1;
      const a0 = field[c - sw - 1]!,
        a1 = field[c - sw]!,
        a2 = field[c - sw + 1]!;
      const a3 = field[c - 1]!,
        a4 = field[c]!,
        a5 = field[c + 1]!;
      const a6 = field[c + sw - 1]!,
        a7 = field[c + sw]!,
        a8 = field[c + sw + 1]!;
      const x = (a0 + a3 + a3 + a6 - (a2 + a5 + a5 + a8)) * ew;
      const y = (a6 + a7 + a7 + a8 - (a0 + a1 + a1 + a2)) * -ew;
      const o = (j * w + i) * 4;
      // No data: a NaN (or infinite) elevation anywhere in the window makes x, y or a4 non-finite.
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(a4))) {
        out[o] = out[o + 1] = out[o + 2] = out[o + 3] = 0;
        continue;
      }
      let g: number;
      if (single) {
        const c = (sinAlt254 - (y * cosAzCosAltZ254 - x * sinAzCosAltZ254)) / Math.sqrt(1 + squareZ * (x * x + y * y));
        g = c <= 0 ? 1 / 255 : (1 + c) / 255;
      } else g = gdalShade(t, x, y) / 255;
      let r = sr + dr * g,
        gr = sg + dg * g,
        b = sb + db * g,
        a = sa + da * g;
      if (aa > 0) {
        const q = t.squareZ * (x * x + y * y);
        const k = Math.sqrt(q / (1 + q));
        const keep = 1 - aa * k;
        r = ar * k + r * keep;
        gr = ag * k + gr * keep;
        b = ab * k + b * keep;
        a = aa * k + a * keep;
      }
      out[o] = r;
      out[o + 1] = gr;
      out[o + 2] = b;
      out[o + 3] = a;
    }
  }
  return out;
}
