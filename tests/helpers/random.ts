// Seeded PRNG for tests (mulberry32), so a failure reproduces from its seed.
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * n premultiplied RGBA pixels, a per-pixel kernel's test input: `pixel(i)` gives pixel i's straight
 * colour `s` ([r, g, b]) and alpha `a`, drawing its random numbers in its own order.
 */
export function premultipliedPixels(n: number, pixel: (i: number) => { s: number[]; a: number }): { src: Float32Array; straight: number[][]; alpha: number[] } {
  const src = new Float32Array(n * 4);
  const straight: number[][] = [];
  const alpha: number[] = [];
  for (let i = 0; i < n; i++) {
    const { s, a } = pixel(i);
    straight.push(s);
    alpha.push(a);
    src.set([s[0]! * a, s[1]! * a, s[2]! * a, a], i * 4);
  }
  return { src, straight, alpha };
}
