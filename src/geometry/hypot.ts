/**
 * Math.hypot of two numbers, bit for bit, without its allocation: V8 implements Math.hypot as a
 * builtin (math.tq MathHypot) that optimised code calls rather than inlines, allocating a double
 * array per call and a heap number for its result. This is the same arithmetic (the largest
 * magnitude scaled out, the Kahan sum of the two squares, which for two terms is their plain sum,
 * the square root scaled back), inlined where it is hot: the per-segment measures of line
 * clipping and the MapLibre line stroke.
 */
export function hypot(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  let max = 0;
  if (ax > max) max = ax;
  if (ay > max) max = ay;
  if (max === Infinity) return Infinity;
  if (x !== x || y !== y) return Number.NaN;
  if (max === 0) return 0;
  const a = ax / max;
  const b = ay / max;
  return Math.sqrt(a * a + b * b) * max;
}
