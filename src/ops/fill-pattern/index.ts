import { boolRef, numRef, oneOfEnum, opacityRef, pair } from '../../style/fields.js';
import { acquire, release } from '../../backends/cpu/pool.js';
import { acquireRasterizer, releaseRasterizer } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { paintedNothing } from '../../backends/cpu/uniform.js';
import { clamp01 } from '../../expr/paint.js';
import type { Features, Raster, Sprite } from '../../types.js';
import { assetField, spriteInput } from '../stamp/sprite.js';
import type { OpContext } from '../types.js';
import { paintOp } from '../declare.js';
import { addPolygonRings } from '../fill-solid/plan.js';
import { gpu } from './gpu.js';

/**
 * Polygons filled with a pattern: a sprite repeated over the world plane from world pixel
 * `offset`, each texel `scale` pixels wide, so the pattern continues across tiles; or a raster
 * (already canvas-sized and, when its source is, world-anchored) shown through the polygons as it
 * is (`scale` and `offset` apply to sprites only). The polygons of all features form one coverage
 * (their union), which multiplies the pattern.
 */
export const fillPattern = paintOp({
  name: 'fill-pattern',
  description: 'fills polygons with a world-anchored repeating sprite (or a raster)',
  inputs: { pattern: ['sprite', 'raster'] },
  fields: {
    pattern: assetField('the pattern tile (a sprite) or a raster'),
    scale: numRef({ exclusiveMin: 0, default: 1, unit: 'px', description: 'pixels per pattern texel' }),
    offset: pair({ default: [0, 0], unit: 'px', description: 'world pixels [x, y] where a pattern tile starts' }),
    opacity: opacityRef(),
    antialias: boolRef(true),
    wrap: {
      ...oneOfEnum(['world', 'plane'], 'world'),
      description:
        "'world': a whole number of repeats around the world, so the pattern continues across the antimeridian; 'plane': the exact period everywhere (MapLibre's patterns)",
    },
  },
  required: ['pattern'],
  pad: (_b, field) => (field === 'features' ? 1 : 0),
  paintsOnto: true,
  gpu,
  async cpu(ctx) {
    const { width: W, height: H } = ctx.canvas;
    const pattern = await spriteInput(ctx, 'pattern');
    const { cov, covered, spans } = coverage(ctx);
    const out = ctx.target ?? newRaster(W, H);
    const o = out.data;
    const op = clamp01(ctx.num('opacity', 1));
    // op is in [0, 1] and every coverage >= 0: cov op <= 0 everywhere exactly where no coverage is > 0 or op <= 0.
    if (!(covered && op > 0)) {
      // Neither loop below would write a pixel (each skips c <= 0): one value everywhere stays so.
      release(cov);
      paintedNothing(o, !!ctx.target);
      return out;
    }
    const t = new Float64Array(4);
    const ph = pattern.kind === 'sprite' ? patternPhase(ctx, pattern) : undefined;
    if (ph) {
      spritePattern(pattern as Sprite, ph, cov, op, o, W, H, spans); // sampleSprite per pixel, written out
      release(cov);
      return out;
    }
    for (let y = 0; y < H; y++) {
      // Outside the row's span the coverage is 0: c = 0 op = 0, which the loop skips.
      for (let x = spans[2 * y]!, x1 = spans[2 * y + 1]!; x < x1; x++) {
        const c = cov[y * W + x]! * op;
        if (c <= 0) continue;
        const p = (y * W + x) * 4;
        for (let k = 0; k < 4; k++) t[k] = (pattern as Raster).data[p + k]!;
        const a = t[3]! * c;
        if (a <= 0) continue;
        const q = 1 - a;
        o[p] = t[0]! * c + o[p]! * q;
        o[p + 1] = t[1]! * c + o[p + 1]! * q;
        o[p + 2] = t[2]! * c + o[p + 2]! * q;
        o[p + 3] = a + o[p + 3]! * q;
      }
    }
    release(cov);
    return out;
  },
});

/**
 * The sprite pattern source-over `o` through the coverage: per pixel sampleSprite(s, cols[x], v0 +
 * y inv, wrap) written out, with its per-column and per-row parts (texel indices, weights) taken
 * once per column and row: the same sums in the same order, so the same values bit for bit.
 * `spans`: per row y the columns [spans[2y], spans[2y + 1]) outside which the coverage is 0 (the
 * pixels the loop would skip), else every column.
 */
export function spritePattern(
  s: Sprite,
  ph: { cols: Float32Array; v0: number; inv: number },
  cov: Float32Array,
  op: number,
  o: Float32Array,
  W: number,
  H: number,
  spans?: Int32Array,
): void {
  const { width: sw, height: sh, data } = s;
  const tx0 = new Int32Array(W);
  const tx1 = new Int32Array(W);
  const wx0 = new Float64Array(W);
  const wx1 = new Float64Array(W);
  for (let x = 0; x < W; x++) {
    const u = ph.cols[x]! - 0.5;
    const f0 = Math.floor(u);
    const fx = u - f0;
    tx0[x] = (((f0 % sw) + sw) % sw) * 4;
    tx1[x] = ((((f0 + 1) % sw) + sw) % sw) * 4;
    wx0[x] = 1 - fx;
    wx1[x] = fx;
  }
  for (let y = 0; y < H; y++) {
    const v = ph.v0 + y * ph.inv - 0.5;
    const g0 = Math.floor(v);
    const fy = v - g0;
    const wy0 = 1 - fy;
    const wy1 = fy;
    const r0 = (((g0 % sh) + sh) % sh) * sw * 4;
    const r1 = ((((g0 + 1) % sh) + sh) % sh) * sw * 4;
    const xa = spans ? spans[2 * y]! : 0;
    const xb = spans ? spans[2 * y + 1]! : W;
    for (let x = xa; x < xb; x++) {
      const c = cov[y * W + x]! * op;
      if (c <= 0) continue;
      let t0 = 0,
        t1 = 0,
        t2 = 0,
        t3 = 0;
      for (let j = 0; j < 2; j++) {
        const wy = j === 0 ? wy0 : wy1;
        if (wy === 0) continue;
        const row = j === 0 ? r0 : r1;
        for (let i = 0; i < 2; i++) {
          const wgt = (i === 0 ? wx0[x]! : wx1[x]!) * wy;
          if (wgt === 0) continue;
          const q = row + (i === 0 ? tx0[x]! : tx1[x]!);
          t0 += data[q]! * wgt;
          t1 += data[q + 1]! * wgt;
          t2 += data[q + 2]! * wgt;
          t3 += data[q + 3]! * wgt;
        }
      }
      const a = t3 * c;
      if (a <= 0) continue;
      const p = (y * W + x) * 4;
      const k = 1 - a;
      o[p] = t0 * c + o[p]! * k;
      o[p + 1] = t1 * c + o[p + 1]! * k;
      o[p + 2] = t2 * c + o[p + 2]! * k;
      o[p + 3] = a + o[p + 3]! * k;
    }
  }
}

/**
 * Where the canvas samples a sprite pattern: per column the sprite's u (reduced modulo its width
 * in float64, so the GPU's float32 only ever sees small numbers); row y samples v0 + y inv.
 *
 * The pattern goes round the world a whole number of times, n = round(W / period) (W = tileSize
 * 2^z, period = sprite width x scale), so it continues across the antimeridian. A whole-pixel
 * period keeps whole-pixel texels: the |W - n period| columns the world has too many or too few
 * are single columns repeated or skipped, one every W / |W - n period| pixels from the
 * antimeridian east (none where the period divides W: every power-of-two sprite at a whole
 * scale); any other period is resampled anyway and is stretched evenly by W / (n period).
 */
export function patternPhase(ctx: OpContext, s: Sprite): { cols: Float32Array; v0: number; inv: number } {
  // A sprite of pixel ratio 2 (an @2x icon) has two texels per pixel.
  const scale = Math.max(1e-6, ctx.num('scale', 1)) / (s.pixelRatio ?? 1);
  // In render pixels: at a pixel ratio the world's pixels are that many times smaller.
  const off = ctx.nums('offset') ?? [0, 0];
  const mod = (v: number, m: number) => ((v % m) + m) % m;
  const { x0, width, tileSize, z } = ctx.canvas;
  const W = tileSize * 2 ** z;
  const period = s.width * scale;
  const n = Math.max(1, Math.round(W / period));
  const D = W - n * period;
  const whole = Math.abs(period - Math.round(period)) < 1e-9;
  const cols = new Float32Array(width);
  if (ctx.node.wrap === 'plane') {
    // The exact period everywhere (MapLibre's patterns): the world need not hold a whole number.
    for (let i = 0; i < width; i++) cols[i] = mod((x0 + i + 0.5 - (off[0] ?? 0)) / scale, s.width);
    return { cols, v0: mod((ctx.canvas.y0 + 0.5 - (off[1] ?? 0)) / scale, s.height), inv: 1 / scale };
  }
  const sign = D > 0 ? 1 : -1;
  for (let i = 0; i < width; i++) {
    const xw = mod(x0 + i, W);
    // The pattern's own pixel column at world column xw: n periods across the world.
    // D > 0: a pattern column repeated every W / D world columns; D < 0: one skipped. No -0 (a
    // sign times a zero floor): V8 deoptimised this function where it first met one.
    const step = whole ? Math.floor((xw * Math.abs(D)) / W) : 0;
    const p = whole ? xw - (step === 0 ? 0 : sign * step) : (xw * n * period) / W;
    cols[i] = mod((p + 0.5 - (off[0] ?? 0)) / scale, s.width);
  }
  return { cols, v0: mod((ctx.canvas.y0 + 0.5 - (off[1] ?? 0)) / scale, s.height), inv: 1 / scale };
}

/**
 * The union coverage of every group's polygons (each group source-over the previous), canvas-sized
 * (a zeroed canvas of the pool: the caller releases it); whether any of it is > 0, and per row y the
 * columns [spans[2y], spans[2y + 1]) outside which it is 0 (W, 0 where the whole row is).
 */
function coverage(ctx: OpContext): { cov: Float32Array; covered: boolean; spans: Int32Array } {
  const { width: W, height: H, x0, y0 } = ctx.canvas;
  const cv = acquire(W * H);
  const spans = new Int32Array(2 * H);
  for (let y = 0; y < H; y++) spans[2 * y] = W;
  // Whether any value is > 0 (a boolean, not the largest value: a number field that held 0 first
  // and a fraction later made V8 deoptimise the callers the first time, at the timed tiles).
  let covered = false;
  const rast = acquireRasterizer(W, H, ctx.bool('antialias', true));
  const features = ctx.input<'features'>('features') as Features;
  for (const g of features.groups) {
    if (!g.polygons.length) continue;
    addPolygonRings(g, (ring, winding) => rast.addRing(ring, -x0, -y0, winding));
    rast.sweep((y, xa, xb, cov, solid) => {
      let p = y * W + xa;
      let lo = xb,
        hi = xa;
      for (let x = xa; x < xb; x++, p++) {
        const c = solid >= 0 ? solid : cov[x]!;
        if (c > 0) {
          const v = Math.fround(c + cv[p]! * (1 - c)); // the value the canvas holds
          cv[p] = v;
          if (v > 0) covered = true;
          if (x < lo) lo = x;
          hi = x + 1;
        }
      }
      if (lo < spans[2 * y]!) spans[2 * y] = lo;
      if (hi > spans[2 * y + 1]!) spans[2 * y + 1] = hi;
    });
  }
  releaseRasterizer(rast);
  return { cov: cv, covered, spans };
}

/** Groups with polygons, for the GPU coverage pass. */
export function polygonGroups(ctx: OpContext): Features['groups'] {
  return (ctx.input<'features'>('features') as Features).groups.filter((g) => g.polygons.length > 0);
}
