// posterize on the CPU (plan.ts): each straight channel c becomes floor(c steps + 0.5) / steps,
// premultiplied again by the kept alpha; transparent pixels stay transparent.

/** Premultiplied RGBA `src` to `dst` with `steps` = levels - 1 (every pixel written). */
export function posterize(src: Float32Array, dst: Float32Array, steps: number): void {
  const inv = 1 / steps;
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    if (!(a > 0)) {
      dst[i] = dst[i + 1] = dst[i + 2] = dst[i + 3] = 0;
      continue;
    }
    // The straight colour is clamped to 1 first: a premultiplied value may exceed its alpha by a rounding.
    const k = steps / a;
    for (let c = 0; c < 3; c++) {
      const v = Math.floor(Math.min(src[i + c]! * k, steps) + 0.5);
      dst[i + c] = v * inv * a;
    }
    dst[i + 3] = a;
  }
}
