// circles: the CPU kernel (the reference).
import type { Raster } from '../../types.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { reportPaint } from '../../backends/cpu/uniform.js';
import type { OpContext } from '../types.js';
import { circlePaints, smoothWeights } from './plan.js';

/** The circles op's CPU kernel. */
export function circlesCpu(ctx: OpContext): Raster {
  const { width: W, height: H, x0, y0 } = ctx.canvas;
  const out = ctx.target ?? newRaster(W, H);
  const d = out.data;
  const wt = new Float64Array(2);
  let painted = false; // a circle's box reached the canvas (its pixels may be written)
  for (const { points: pts, r, sw, fill, stroke, aa } of circlePaints(ctx)) {
    const [fr, fg, fb, fa] = fill;
    const [sr, sg, sb, sa] = stroke;
    const R = r + sw; // outer radius
    const reach = aa > 0 ? R : R + 0.5;
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const cx = pts[i]! - x0;
      const cy = pts[i + 1]! - y0;
      const xa = Math.max(0, Math.floor(cx - reach));
      const xb = Math.min(W, Math.ceil(cx + reach));
      const ya = Math.max(0, Math.floor(cy - reach));
      const yb = Math.min(H, Math.ceil(cy + reach));
      if (xa < xb && ya < yb) painted = true;
      for (let y = ya; y < yb; y++) {
        const dy = y + 0.5 - cy;
        let p = (y * W + xa) * 4;
        for (let x = xa; x < xb; x++, p += 4) {
          const dx = x + 0.5 - cx;
          const dist = Math.sqrt(dx * dx + dy * dy);
          let inner: number;
          let ring: number;
          if (aa > 0) {
            if (dist >= R) continue;
            smoothWeights(dist, r, sw, aa, wt);
            inner = wt[0]!;
            ring = wt[1]!;
          } else {
            const co = R - dist + 0.5;
            if (co <= 0) continue;
            const outer = co < 1 ? co : 1;
            const ci0 = r - dist + 0.5;
            inner = ci0 <= 0 ? 0 : ci0 < 1 ? ci0 : 1;
            // The fill covers `inner`, the ring the rest of `outer`: a partition, not stacked layers.
            ring = outer - inner;
          }
          const a = fa * inner + sa * ring;
          const k = 1 - a;
          d[p] = fr * inner + sr * ring + d[p]! * k;
          d[p + 1] = fg * inner + sg * ring + d[p + 1]! * k;
          d[p + 2] = fb * inner + sb * ring + d[p + 2]! * k;
          d[p + 3] = a + d[p + 3]! * k;
        }
      }
    }
  }
  reportPaint(d, !!ctx.target, painted);
  return out;
}
