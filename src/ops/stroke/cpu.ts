// stroke on the CPU: each group's dabs are combined by maximum alpha into a layer (the union of
// one stroke: dense dabs do not pile up), which is composited source-over onto the canvas. Round
// dabs run in WebAssembly (stroke.wat via simd.ts, bit for bit this file's kernel); image tips and
// hosts without WebAssembly run drawDabsReference.
import { acquire, release } from '../../backends/cpu/pool.js';
import { newRaster, newRasterUninit } from '../../backends/cpu/raster.js';
import type { Raster } from '../../types.js';
import { sampleSprite } from '../stamp/sprite.js';
import { dabReach, type Dabs } from './plan.js';
import { drawDabsWasm } from './simd.js';

/** What drawRun and drawDab share while drawDabs draws one set of dabs. */
interface DabPass {
  d: Dabs;
  W: number;
  H: number;
  /** The group's layer, premultiplied RGBA, written before it is read (first touch per group, tracked by `owner`). */
  layer: Float32Array;
  /** Per pixel: group index + 1 of the last writer. */
  owner: Float32Array;
  /** The group being drawn, + 1 (what `owner` holds for its pixels). */
  tag: number;
  /** Record a pixel the group touches for the first time. */
  touch(pi: number): void;
  invAa: number;
  tipSide: number;
  /** Scratch for sampleSprite. */
  texel: Float64Array;
}

/** Draws dabs `d` onto `target` (else a new transparent raster): the WebAssembly kernel where it runs. */
export function drawDabs(d: Dabs, W: number, H: number, target?: Raster): Raster {
  if (d.round) {
    const out = target ?? newRasterUninit(W, H);
    if (drawDabsWasm(d, W, H, out.data, target === undefined)) return out;
    if (!target) out.data.fill(0);
    return drawDabsReference(d, W, H, out);
  }
  return drawDabsReference(d, W, H, target);
}

/** The TypeScript kernel: the reference of stroke.wat, and what image tips run. */
export function drawDabsReference(d: Dabs, W: number, H: number, target?: Raster): Raster {
  const out = target ?? newRaster(W, H);
  const o = out.data;
  let touched = new Int32Array(4096);
  let nt = 0;
  const { group, tip, aa } = d;
  const pass: DabPass = {
    d,
    W,
    H,
    layer: acquire(W * H * 4, false),
    owner: acquire(W * H),
    tag: 0,
    touch(pi) {
      if (nt >= touched.length) {
        const t2 = new Int32Array(touched.length * 2);
        t2.set(touched);
        touched = t2;
      }
      touched[nt++] = pi;
    },
    invAa: aa > 0 ? 1 / aa : 0,
    tipSide: Math.max(tip.width, tip.height),
    texel: new Float64Array(4),
  };
  const { layer } = pass;
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
  let ri = 0;
  const { runGroup } = d;
  for (let i = 0; i <= d.count; i++) {
    const g = i < d.count ? group[i]! : d.groups;
    if (g !== cur) {
      // Runs of the groups up to this one, then the group's composite.
      while (ri < d.runCount && runGroup[ri]! <= g) {
        const rg = runGroup[ri]!;
        if (rg !== cur) {
          flush();
          cur = rg;
          pass.tag = rg + 1;
        }
        drawRun(pass, ri++);
      }
      if (i === d.count) break;
      if (g !== cur) {
        flush();
        cur = g;
        pass.tag = g + 1;
      }
    }
    drawDab(pass, i, g);
  }
  flush();
  release(pass.layer);
  release(pass.owner);
  return out;
}

/**
 * One run of alike round dabs on a segment: per pixel the nearest dab (by projection onto the
 * segment, clamped to the run) is the strongest, so each pixel costs one profile whatever the
 * dab density. Rows are limited to the band within reach of the segment's line.
 */
function drawRun(pass: DabPass, ri: number): void {
  const { d, W, H, layer, owner, tag, touch, invAa } = pass;
  const { runs, runGroup, paints, hardness, aa } = d;
  const o = ri * 9;
  const ax = runs[o]!,
    ay = runs[o + 1]!,
    ux = runs[o + 2]!,
    uy = runs[o + 3]!;
  const d0 = runs[o + 4]!,
    sp = runs[o + 5]!,
    count = runs[o + 6]!,
    r = runs[o + 7]!,
    m = runs[o + 8]!;
  const g = runGroup[ri]!;
  const pr = paints[g * 4]!,
    pg = paints[g * 4 + 1]!,
    pb = paints[g * 4 + 2]!,
    pa = paints[g * 4 + 3]!;
  const rim = r + (aa > 0 ? aa / 2 : 0);
  const rim2 = rim * rim;
  const full = pa * m;
  const softW = hardness < 1 ? 1 / ((1 - hardness) * r) : 0;
  const tEnd = d0 + (count - 1) * sp;
  const ex = ax + ux * tEnd,
    ey = ay + uy * tEnd;
  const sx = ax + ux * d0,
    sy = ay + uy * d0;
  const xa = Math.max(0, Math.floor(Math.min(sx, ex) - rim));
  const xb = Math.min(W, Math.ceil(Math.max(sx, ex) + rim));
  const ya = Math.max(0, Math.floor(Math.min(sy, ey) - rim));
  const yb = Math.min(H, Math.ceil(Math.max(sy, ey) + rim));
  const invSp = 1 / sp;
  const last = count - 1;
  for (let y = ya; y < yb; y++) {
    const py = y + 0.5;
    // Columns whose centres lie within rim of the segment's line in this row.
    let x0 = xa,
      x1 = xb;
    if (Math.abs(uy) > 1e-9) {
      const xc = ax + (ux * (py - ay)) / uy;
      const half = rim / Math.abs(uy);
      x0 = Math.max(xa, Math.floor(xc - half - 0.5));
      x1 = Math.min(xb, Math.ceil(xc + half + 0.5));
    }
    let pi = y * W + x0;
    for (let x = x0; x < x1; x++, pi++) {
      const px = x + 0.5;
      const fresh = owner[pi] !== tag;
      const p = pi * 4;
      if (!fresh && layer[p + 3]! >= full) continue;
      let k = Math.round(((px - ax) * ux + (py - ay) * uy - d0) * invSp);
      k = k < 0 ? 0 : k > last ? last : k;
      const t = d0 + k * sp;
      const dx = px - (ax + ux * t);
      const dy = py - (ay + uy * t);
      const d2 = dx * dx + dy * dy;
      if (d2 >= rim2) continue;
      const dist = Math.sqrt(d2);
      let c = aa > 0 ? (r - dist) * invAa + 0.5 : dist <= r ? 1 : 0;
      if (c > 1) c = 1;
      if (softW > 0) {
        const s = (r - dist) * softW;
        if (s < c) c = s;
      }
      if (c <= 0) continue;
      const va = pa * c * m;
      if (fresh) {
        owner[pi] = tag;
        touch(pi);
      } else if (va <= layer[p + 3]!) continue;
      const cm = c * m;
      layer[p] = pr * cm;
      layer[p + 1] = pg * cm;
      layer[p + 2] = pb * cm;
      layer[p + 3] = va;
    }
  }
}

/** Dab i of group g: a round profile (roundProfile, plan.ts, written out) or the tip image. */
function drawDab(pass: DabPass, i: number, g: number): void {
  const { d, W, H, layer, owner, tag, touch, invAa, tipSide, texel } = pass;
  const { geom, paints, tip, round, tinted, hardness, aa } = d;
  const cx = geom[i * 4]!;
  const cy = geom[i * 4 + 1]!;
  const r = geom[i * 4 + 2]!;
  const m = geom[i * 4 + 3]!;
  const pr = paints[g * 4]!,
    pg = paints[g * 4 + 1]!,
    pb = paints[g * 4 + 2]!,
    pa = paints[g * 4 + 3]!;
  const reach = dabReach(r, round, aa);
  const xa = Math.max(0, Math.floor(cx - reach));
  const xb = Math.min(W, Math.ceil(cx + reach));
  const ya = Math.max(0, Math.floor(cy - reach));
  const yb = Math.min(H, Math.ceil(cy + reach));
  if (xa >= xb || ya >= yb) return;
  // Round dabs: roundProfile (plan.ts) written out; nothing beyond rim + aa / 2 is touched.
  const rim = r + (aa > 0 ? aa / 2 : 0);
  const rim2 = rim * rim;
  const full = pa * m; // the strongest this dab can be: pixels already at it are skipped
  const softW = hardness < 1 ? 1 / ((1 - hardness) * r) : 0;
  // Radius within which roundProfile is 1: the aa ramp and the hardness fade both start beyond it.
  const core = Math.min(aa > 0 ? r - aa / 2 : r, hardness < 1 ? hardness * r : Infinity);
  const core2 = core > 0 ? core * core : -1;
  const k = (2 * r) / tipSide; // image tips: pixels per tip texel
  for (let y = ya; y < yb; y++) {
    const dy = y + 0.5 - cy;
    // Round dabs: only the columns whose centres can lie inside the rim in this row.
    let x0 = xa,
      x1 = xb;
    if (round) {
      const h2 = rim2 - dy * dy;
      if (h2 <= 0) continue;
      const h = Math.sqrt(h2);
      x0 = Math.max(xa, Math.floor(cx - h - 0.5));
      x1 = Math.min(xb, Math.ceil(cx + h + 0.5));
    }
    let pi = y * W + x0;
    for (let x = x0; x < x1; x++, pi++) {
      const dx = x + 0.5 - cx;
      const fresh = owner[pi] !== tag;
      const p = pi * 4;
      let vr: number, vg: number, vb: number, va: number;
      if (round) {
        const d2 = dx * dx + dy * dy;
        if (d2 >= rim2 || (!fresh && layer[p + 3]! >= full)) continue;
        let c = 1;
        // Inside the full-strength core the profile is 1: no square root.
        if (d2 > core2) {
          const dist = Math.sqrt(d2);
          c = aa > 0 ? (r - dist) * invAa + 0.5 : dist <= r ? 1 : 0;
          if (c > 1) c = 1;
          if (softW > 0) {
            const s = (r - dist) * softW;
            if (s < c) c = s;
          }
          if (c <= 0) continue;
        }
        c *= m;
        vr = pr * c;
        vg = pg * c;
        vb = pb * c;
        va = pa * c;
      } else {
        sampleSprite(tip, dx / k + tip.width / 2, dy / k + tip.height / 2, false, texel);
        if (texel[3]! <= 0) continue;
        if (tinted) {
          const c = texel[3]! * m;
          vr = pr * c;
          vg = pg * c;
          vb = pb * c;
          va = pa * c;
        } else {
          vr = texel[0]! * m;
          vg = texel[1]! * m;
          vb = texel[2]! * m;
          va = texel[3]! * m;
        }
      }
      if (fresh) {
        owner[pi] = tag;
        touch(pi);
      } else if (va <= layer[p + 3]!) continue;
      layer[p] = vr;
      layer[p + 1] = vg;
      layer[p + 2] = vb;
      layer[p + 3] = va;
    }
  }
}
