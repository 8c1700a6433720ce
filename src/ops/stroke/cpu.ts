// stroke on the CPU: each group's dabs are combined by maximum alpha into a layer (the union of
// one stroke: dense dabs do not pile up), which is composited source-over onto the canvas.
import { newRaster } from '../../backends/cpu/raster.js';
import type { Raster } from '../../types.js';
import { sampleSprite } from '../stamp/sprite.js';
import { dabReach, roundProfile, type Dabs } from './plan.js';

export function drawDabs(d: Dabs, W: number, H: number, target?: Raster): Raster {
  const out = target ?? newRaster(W, H);
  const o = out.data;
  const layer = new Float32Array(W * H * 4);
  const owner = new Int32Array(W * H).fill(-1);
  let touched = new Int32Array(1024);
  let nt = 0;
  const { geom, group, paints, tip, round, tinted, hardness, aa } = d;
  const texel = new Float64Array(4);
  const tipSide = Math.max(tip.width, tip.height);
  const flush = () => {
    for (let k = 0; k < nt; k++) {
      const p = touched[k]! * 4;
      const a = layer[p + 3]!;
      const q = 1 - a;
      o[p] = layer[p]! + o[p]! * q;
      o[p + 1] = layer[p + 1]! + o[p + 1]! * q;
      o[p + 2] = layer[p + 2]! + o[p + 2]! * q;
      o[p + 3] = a + o[p + 3]! * q;
    }
    nt = 0;
  };
  let cur = -1;
  for (let i = 0; i < d.count; i++) {
    const g = group[i]!;
    if (g !== cur) {
      flush();
      cur = g;
    }
    const cx = geom[i * 4]!;
    const cy = geom[i * 4 + 1]!;
    const r = geom[i * 4 + 2]!;
    const m = geom[i * 4 + 3]!;
    const pr = paints[g * 4]!, pg = paints[g * 4 + 1]!, pb = paints[g * 4 + 2]!, pa = paints[g * 4 + 3]!;
    const reach = dabReach(r, round, aa);
    const xa = Math.max(0, Math.floor(cx - reach));
    const xb = Math.min(W, Math.ceil(cx + reach));
    const ya = Math.max(0, Math.floor(cy - reach));
    const yb = Math.min(H, Math.ceil(cy + reach));
    const k = (2 * r) / tipSide; // image tips: pixels per tip texel
    for (let y = ya; y < yb; y++) {
      const dy = y + 0.5 - cy;
      for (let x = xa; x < xb; x++) {
        const dx = x + 0.5 - cx;
        let vr: number, vg: number, vb: number, va: number;
        if (round) {
          const c = roundProfile(Math.sqrt(dx * dx + dy * dy), r, hardness, aa) * m;
          if (c <= 0) continue;
          vr = pr * c; vg = pg * c; vb = pb * c; va = pa * c;
        } else {
          sampleSprite(tip, dx / k + tip.width / 2, dy / k + tip.height / 2, false, texel);
          if (texel[3]! <= 0) continue;
          if (tinted) {
            const c = texel[3]! * m;
            vr = pr * c; vg = pg * c; vb = pb * c; va = pa * c;
          } else {
            vr = texel[0]! * m; vg = texel[1]! * m; vb = texel[2]! * m; va = texel[3]! * m;
          }
        }
        const pi = y * W + x;
        const p = pi * 4;
        if (owner[pi] !== cur) {
          owner[pi] = cur;
          if (nt >= touched.length) {
            const t2 = new Int32Array(touched.length * 2);
            t2.set(touched);
            touched = t2;
          }
          touched[nt++] = pi;
        } else if (va <= layer[p + 3]!) continue;
        layer[p] = vr;
        layer[p + 1] = vg;
        layer[p + 2] = vb;
        layer[p + 3] = va;
      }
    }
  }
  flush();
  return out;
}
