// Rasters known to hold one value everywhere (open sea, an empty layer, the blur or blend of such
// rasters): a CPU kernel that knows it computes one pixel with its own per-pixel arithmetic and
// fills its output with it, instead of running over the whole canvas. The data stays valid
// (every element written), so a kernel that does not know the mark reads the same pixels.
//
// The mark is kept by data array, not by raster object: a crop to the same canvas shares the
// array and keeps it. What writes into an array it did not just take from the pool forgets it:
// a paint op drawing onto `ctx.target` (src/render/render.ts clears the target's mark first and
// sets it again only when the op reports it drew nothing), and the pool (acquire and release).

/** The premultiplied RGBA value of each marked array (4 floats). */
const marks = new WeakMap<Float32Array, Float32Array>();
/** Targets a paint op drew nothing onto (paintedNothing), until render.ts takes the report. */
const untouched = new WeakSet<Float32Array>();

/** The one RGBA value every pixel of `data` holds, when it is known; else undefined. */
export function uniformOf(data: Float32Array): Float32Array | undefined {
  return marks.get(data);
}

/** Mark `data` as `px` (4 floats: premultiplied RGBA) at every pixel. The caller has written it. */
export function markUniform(data: Float32Array, px: ArrayLike<number>): void {
  marks.set(data, Float32Array.of(px[0]!, px[1]!, px[2]!, px[3]!));
}

/** Forget what is known of `data` (its mark and an untaken paintedNothing report). */
export function forgetUniform(data: Float32Array): void {
  marks.delete(data);
  untouched.delete(data);
}

/** Whether every channel of `px` is +0 (the bits of a zero-filled array; -0 is not). */
export function isZeroPixel(px: ArrayLike<number>): boolean {
  for (let c = 0; c < 4; c++) if (px[c] !== 0 || 1 / px[c]! < 0) return false;
  return true;
}

/** Write `px` (4 floats) into every pixel of `data`: one pixel, then doubling copies. */
export function fillPixel(data: Float32Array, px: ArrayLike<number>): void {
  if (!data.length) return;
  data[0] = px[0]!;
  data[1] = px[1]!;
  data[2] = px[2]!;
  data[3] = px[3]!;
  for (let filled = 4; filled < data.length; filled *= 2) data.copyWithin(filled, 0, Math.min(filled, data.length - filled));
}

/**
 * A paint op that composited nothing reports it here: onto a target (a fused blend's base), the
 * target keeps the mark it had (render.ts takes the report, takeUntouched); a fresh zero-filled
 * raster of its own (no target) is marked transparent.
 */
export function paintedNothing(out: Float32Array, target: boolean): void {
  if (target) untouched.add(out);
  else marks.set(out, new Float32Array(4));
}

/**
 * The end of a paint kernel: paintedNothing when it composited nothing. Called on every render, so
 * the kernel's call site always has type feedback: a report made only in a branch that had never
 * run when V8 optimised a large kernel deoptimised it each time a layer painted nothing (the MapLibre
 * line kernel: 30-34 times in a 3,000-render run, each re-optimisation 70-90 ms of TurboFan).
 */
export function reportPaint(out: Float32Array, target: boolean, painted: boolean): void {
  if (!painted) paintedNothing(out, target);
}

/** Whether a paint op reported drawing nothing onto `data` since the last call; the report is taken. */
export function takeUntouched(data: Float32Array): boolean {
  return untouched.delete(data);
}
