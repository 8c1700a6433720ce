// displace on the CPU (the reference): bilinear reads of the padded input at offsets from the
// displacement raster (plan.ts).
import { acquire } from '../../backends/cpu/pool.js';
import { boundaryRow, type DisplacePlan } from './plan.js';

/** src: RGBA sw x sh (the canvas grown by p.pad); disp: RGBA w x h (the canvas). */
export function displace(src: Float32Array, sw: number, sh: number, disp: Float32Array, w: number, h: number, p: DisplacePlan): Float32Array {
  const out = acquire(w * h * 4, false);
  const kx = 2 * p.ampX,
    ky = 2 * p.ampY;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const o = (j * w + i) * 4;
      const da = disp[o + 3]!;
      // Offsets clamp to the amplitude (a displacement outside [0, A] cannot read past the pad).
      let dx = (disp[o]! - 0.5 * da) * kx,
        dy = (disp[o + 1]! - 0.5 * da) * ky;
      dx = dx < -p.ampX ? -p.ampX : dx > p.ampX ? p.ampX : dx;
      dy = dy < -p.ampY ? -p.ampY : dy > p.ampY ? p.ampY : dy;
      const sx = i + p.pad + dx;
      const sy = j + p.pad + dy;
      const x0 = Math.floor(sx),
        y0 = Math.floor(sy);
      const fx = sx - x0,
        fy = sy - y0;
      const xa = x0 < 0 ? 0 : x0 >= sw ? sw - 1 : x0;
      const xb = x0 + 1 < 0 ? 0 : x0 + 1 >= sw ? sw - 1 : x0 + 1;
      const ya = boundaryRow(y0, p, sh),
        yb = boundaryRow(y0 + 1, p, sh);
      for (let c = 0; c < 4; c++) {
        const v00 = ya < 0 ? 0 : src[(ya * sw + xa) * 4 + c]!;
        const v10 = ya < 0 ? 0 : src[(ya * sw + xb) * 4 + c]!;
        const v01 = yb < 0 ? 0 : src[(yb * sw + xa) * 4 + c]!;
        const v11 = yb < 0 ? 0 : src[(yb * sw + xb) * 4 + c]!;
        const top = v00 + (v10 - v00) * fx;
        const bottom = v01 + (v11 - v01) * fx;
        out[o + c] = top + (bottom - top) * fy;
      }
    }
  }
  return out;
}
