// CPU kernel of the `density` op: additive splatting of a truncated Gaussian at every point.
//
// The exact formula (the WGSL additive-splat pass must match it within 1e-5 relative):
//   field[j*W + i] = sum over points p of  s_p * K(d, r_p),  d = |c_ij - p|,
//   c_ij = (x0 + i + 0.5, y0 + j + 0.5)   (pixel centre in world pixels),
//   K(d, r) = exp(-4.5 * d^2 / r^2) / sqrt(2*pi)   when r > 0 and d^2 <= r^2, else 0,
// where s_p is the point's scale (intensity x weight) and r_p its radius. No clamping, no
// normalisation. The exponent splits by axis, exp(-a(dx^2 + dy^2)) = exp(-a dx^2) exp(-a dy^2),
// so one point costs 2(2r+1) exp() calls and (2r+1)^2 multiply-adds; the rows run in WebAssembly
// (density.wat, bit for bit splatRowsReference below).
import type { ScalarField } from '../../types.js';
import type { OpContext } from '../types.js';
import { acquire } from '../../backends/cpu/pool.js';
import { arenaAlloc, arenaFree, arenaMemory, inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';
import { densityGroups, GAUSS_COEF, reach } from './plan.js';

export { GAUSS_COEF };

/** Whether pixel column i's centre lies in the support, with the row's dy^2 given: the one exact test. */
function inDisk(i: number, px: number, dy2: number, r2: number): boolean {
  const dx = i + 0.5 - px;
  return dx * dx + dy2 <= r2;
}

interface Exports {
  splat(sum: number, W: number, ex: number, ey: number, i0: number, i1: number, j0: number, j1: number, px: number, py: number, r2: number, s: number): void;
  demote(src: number, dst: number, n: number): void;
}

/** density.wat: one point's rows (span and multiply-adds), bit for bit splatRowsReference. */
const kernels = wasmKernels<Exports>('density');

/**
 * One point's rows j0..j1 into `sum` (the reference of density.wat): per row the disk's span of
 * dx^2 + dy^2 <= r^2 settled on the exact test, then sum += (s ey) ex along it.
 */
function splatRowsReference(
  sum: Float64Array,
  W: number,
  ex: Float64Array,
  ey: Float64Array,
  i0: number,
  i1: number,
  j0: number,
  j1: number,
  px: number,
  py: number,
  r2: number,
  s: number,
): void {
  for (let j = j0; j <= j1; j++) {
    const dy = j + 0.5 - py;
    const dy2 = dy * dy;
    if (dy2 > r2) continue;
    // Circular support: this row's span of dx^2 + dy^2 <= r^2, settled on the exact test.
    const half = Math.sqrt(r2 - dy2);
    let a0 = Math.max(i0, Math.ceil(px - half - 0.5));
    let a1 = Math.min(i1, Math.floor(px + half - 0.5));
    while (a0 > i0 && inDisk(a0 - 1, px, dy2, r2)) a0--;
    while (a0 <= a1 && !inDisk(a0, px, dy2, r2)) a0++;
    while (a1 < i1 && inDisk(a1 + 1, px, dy2, r2)) a1++;
    while (a1 >= a0 && !inDisk(a1, px, dy2, r2)) a1--;
    const fy = s * ey[j - j0]!;
    let o = j * W + a0;
    for (let i = a0; i <= a1; i++, o++) sum[o] += fy * ex[i - i0]!;
  }
}

/**
 * Accumulates a field: sums in float64 (rounded to float32 once, `toFloat32`), visiting points in
 * input order so renders are deterministic. Where WebAssembly runs, the sum and the per-point
 * factors are blocks of the canvas arena (src/util/wasm-arena.ts) while it has room, and
 * `toFloat32` rounds the sum into the field's canvas there in place; else they live in
 * density.wat's own memory (one accumulator at a time: kernels are synchronous). Without
 * WebAssembly, or with `reference: true`, plain arrays and the TypeScript rows. The same sums in
 * every case. `toFloat32` or `dispose` ends an accumulator (its arena blocks go back).
 */
export class DensityAccumulator {
  readonly width: number;
  readonly height: number;
  readonly x0: number;
  readonly y0: number;
  sum: Float64Array;
  // Per-axis exp factors of one point, reused across points (sized for the largest radius).
  private ex: Float64Array;
  private ey: Float64Array;
  private readonly k: ReturnType<typeof kernels>;
  /** The kernels the sum and factors are in the memory of. */
  private fn: Exports | undefined;
  /** The arena blocks of sum, ex and ey, while they lie in the arena. */
  private blocks: Float32Array[] = [];

  constructor(width: number, height: number, x0: number, y0: number, maxRadius: number, reference = false) {
    this.width = width;
    this.height = height;
    this.x0 = x0;
    this.y0 = y0;
    const n = 2 * Math.ceil(Math.max(0, maxRadius)) + 2;
    this.k = reference ? null : kernels();
    const placed = this.k ? this.arenaViews(n) : undefined;
    if (placed) [this.sum, this.ex, this.ey] = placed;
    else if (this.k) {
      [this.sum, this.ex, this.ey] = this.views(n);
      this.sum.fill(0);
      this.fn = this.k.fn;
    } else {
      this.sum = new Float64Array(width * height);
      this.ex = new Float64Array(n);
      this.ey = new Float64Array(n);
    }
  }

  /** A zero sum and factor arrays of n as arena blocks, or undefined where the arena has no room for them. */
  private arenaViews(n: number): [Float64Array, Float64Array, Float64Array] | undefined {
    const fn = this.k!.onArena();
    const mem = arenaMemory();
    if (!fn || !mem) return undefined;
    for (const [length, zero] of [
      [this.width * this.height * 2, true],
      [n * 2, false],
      [n * 2, false],
    ] as const) {
      const b = arenaAlloc(Math.max(length, 4), zero);
      if (!b) {
        this.dispose();
        return undefined;
      }
      this.blocks.push(b);
    }
    this.fn = fn;
    const [s, x, y] = this.blocks as [Float32Array, Float32Array, Float32Array];
    return [
      new Float64Array(mem.buffer, s.byteOffset, this.width * this.height),
      new Float64Array(mem.buffer, x.byteOffset, n),
      new Float64Array(mem.buffer, y.byteOffset, n),
    ];
  }

  /** Factors of n: new arena blocks, else the sum moved into the module's memory with them. */
  private grow(n: number): void {
    if (this.blocks.length) {
      const x = arenaAlloc(n * 2, false);
      const y = x && arenaAlloc(n * 2, false);
      if (x && y) {
        for (const b of this.blocks.splice(1)) arenaFree(b);
        this.blocks.push(x, y);
        const buf = x.buffer;
        this.ex = new Float64Array(buf, x.byteOffset, n);
        this.ey = new Float64Array(buf, y.byteOffset, n);
        return;
      }
      if (x) arenaFree(x);
      const sum = this.sum;
      [this.sum, this.ex, this.ey] = this.views(n);
      this.sum.set(sum);
      this.dispose();
      this.fn = this.k!.fn;
      return;
    }
    [this.sum, this.ex, this.ey] = this.views(n);
  }

  /** The sum and factor arrays in the module's memory, grown to factors of n (the sum kept). */
  private views(n: number): [Float64Array, Float64Array, Float64Array] {
    const k = this.k!;
    const cells = this.width * this.height;
    const at = (cells * 8 + 15) & ~15;
    const fac = (n * 8 + 15) & ~15;
    k.reserve(at + 2 * fac);
    const buf = k.f32(0, 0).buffer;
    return [new Float64Array(buf, 0, cells), new Float64Array(buf, at, n), new Float64Array(buf, at + fac, n)];
  }

  /**
   * Adds `scale * K(d, radius)` around every point of a flat [x, y, ...] array, where d <= support
   * (default: the radius). `k` divides the points (a field of cells k pixels wide).
   */
  splat(points: ArrayLike<number>, scale: number, kernelRadius: number, support = kernelRadius, k = 1, ox = 0, oy = 0): void {
    if (!(kernelRadius > 0) || !(support > 0) || scale === 0 || !Number.isFinite(scale)) return;
    const { width: W, height: H } = this;
    const radius = support;
    const r2 = radius * radius;
    const a = 4.5 / (kernelRadius * kernelRadius);
    const need = 2 * Math.ceil(radius) + 2;
    if (this.ex.length < need) {
      if (this.k) this.grow(need);
      else {
        this.ex = new Float64Array(need);
        this.ey = new Float64Array(need);
      }
    }
    const { ex, ey, sum } = this;
    const fn = this.fn;
    const exAt = ex.byteOffset;
    const eyAt = ey.byteOffset;
    const s = scale * GAUSS_COEF;
    for (let q = 0; q + 1 < points.length; q += 2) {
      // Point in canvas pixel units: pixel i's centre sits at i + 0.5.
      const px = (points[q]! - ox) / k - this.x0;
      const py = (points[q + 1]! - oy) / k - this.y0;
      if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
      const i0 = Math.max(0, Math.ceil(px - radius - 0.5));
      const i1 = Math.min(W - 1, Math.floor(px + radius - 0.5));
      const j0 = Math.max(0, Math.ceil(py - radius - 0.5));
      const j1 = Math.min(H - 1, Math.floor(py + radius - 0.5));
      if (i0 > i1 || j0 > j1) continue;
      for (let i = i0; i <= i1; i++) {
        const dx = i + 0.5 - px;
        ex[i - i0] = Math.exp(-a * dx * dx);
      }
      for (let j = j0; j <= j1; j++) {
        const dy = j + 0.5 - py;
        ey[j - j0] = Math.exp(-a * dy * dy);
      }
      if (fn) fn.splat(sum.byteOffset, W, exAt, eyAt, i0, i1, j0, j1, px, py, r2, s);
      else splatRowsReference(sum, W, ex, ey, i0, i1, j0, j1, px, py, r2, s);
    }
  }

  /** The accumulated field as float32, a canvas from the pool; ends the accumulator. */
  toFloat32(): Float32Array {
    const n = this.sum.length;
    const out = acquire(n, false); // every value is written below
    // In the arena: density.wat rounds each value as a Float32Array stores it, in place.
    if (this.blocks.length && inArena(out)) this.fn!.demote(this.sum.byteOffset, out.byteOffset, n);
    else out.set(this.sum); // rounds each value to float32 as Float32Array.from does, without the iterator
    this.dispose();
    return out;
  }

  /** Gives the arena blocks back; the sum must not be read afterwards. */
  dispose(): void {
    for (const b of this.blocks) arenaFree(b);
    this.blocks.length = 0;
  }
}

/** The density op's CPU kernel. */
export function densityCpu(ctx: OpContext): ScalarField {
  const { canvas } = ctx;
  const cutoff = typeof ctx.node.cutoff === 'number' ? ctx.node.cutoff : 0;
  const k = typeof ctx.node.resolution === 'number' ? ctx.node.resolution : 1;
  if (k > 1) return coarse(ctx, k, cutoff);
  const acc = new DensityAccumulator(canvas.width, canvas.height, canvas.x0, canvas.y0, ctx.bound('radius') * 2);
  for (const g of densityGroups(ctx)) acc.splat(g.points, g.scale, g.radius, reach(g.scale, g.radius, cutoff));
  return {
    kind: 'scalar-field',
    width: canvas.width,
    height: canvas.height,
    data: acc.toFloat32(),
  };
}

/**
 * `resolution` k > 1: the field at the centres of cells k pixels wide (cell I spans world x
 * [a + I k, a + (I + 1) k), a = 0, or the window's corner with grid-anchor 'window'), each pixel centre then read bilinearly between the four nearest cell
 * centres (edge cells clamp). The Gaussian depends on d / r only, so the cells are splatted as
 * pixels of a map k times smaller: points / k, radii / k.
 */
function coarse(ctx: OpContext, k: number, cutoff: number): ScalarField {
  // Cells anchored to world pixel (0, 0), or to the requested window's corner (MapLibre's viewport).
  const window = ctx.node['grid-anchor'] === 'window';
  const ox = window ? ctx.window.x0 : 0;
  const oy = window ? ctx.window.y0 : 0;
  const { width: W, height: H } = ctx.canvas;
  const x0 = ctx.canvas.x0 - ox;
  const y0 = ctx.canvas.y0 - oy;
  const cx0 = Math.floor(x0 / k) - 1;
  const cy0 = Math.floor(y0 / k) - 1;
  const cw = Math.ceil((x0 + W) / k) + 1 - cx0;
  const ch = Math.ceil((y0 + H) / k) + 1 - cy0;
  const acc = new DensityAccumulator(cw, ch, cx0, cy0, (ctx.bound('radius') * 2) / k);
  for (const g of densityGroups(ctx)) acc.splat(g.points, g.scale, g.radius / k, reach(g.scale, g.radius, cutoff) / k, k, ox, oy);
  const cells = acc.sum;
  const out = acquire(W * H, false); // every value is written below
  // Pixel centre x0 + i + 0.5 lies at cell coordinate (x0 + i + 0.5) / k - 0.5 (cell centres at integers).
  const col0 = new Int32Array(W);
  const fx = new Float64Array(W);
  // Anchored to the window: as MapLibre reads its viewport's texture, clamped to the edge cells
  // (floor(width / k) of them) rather than reading the field beyond the window.
  const [ulo, uhi] = window ? [-cx0, Math.floor(ctx.window.width / k) - 1 - cx0] : [0, cw - 1];
  const [vlo, vhi] = window ? [-cy0, Math.floor(ctx.window.height / k) - 1 - cy0] : [0, ch - 1];
  for (let i = 0; i < W; i++) {
    const u = Math.min(uhi, cw - 1, Math.max(ulo, 0, (x0 + i + 0.5) / k - 0.5 - cx0));
    col0[i] = Math.min(cw - 2, Math.floor(u));
    fx[i] = u - col0[i]!;
  }
  for (let j = 0; j < H; j++) {
    const v = Math.min(vhi, ch - 1, Math.max(vlo, 0, (y0 + j + 0.5) / k - 0.5 - cy0));
    const r0 = Math.min(ch - 2, Math.floor(v));
    const fy = v - r0;
    const a = r0 * cw;
    const b = a + cw;
    for (let i = 0; i < W; i++) {
      const c = col0[i]!;
      const f = fx[i]!;
      const top = cells[a + c]! + f * (cells[a + c + 1]! - cells[a + c]!);
      const bottom = cells[b + c]! + f * (cells[b + c + 1]! - cells[b + c]!);
      out[j * W + i] = top + fy * (bottom - top);
    }
  }
  acc.dispose();
  return { kind: 'scalar-field', width: W, height: H, data: out };
}
