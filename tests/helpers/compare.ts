// Image comparison for golden and parity tests: per-channel tolerance on premultiplied 8-bit
// values (so colour noise under near-zero alpha does not count), plus a pixelmatch diff image.
import pixelmatch from 'pixelmatch';

export interface Tolerance {
  /** Max per-channel difference, in 1/255 units (default 2). */
  channel?: number;
  /** Fraction of pixels allowed to exceed it (default 0.001). */
  fraction?: number;
}

export interface Comparison {
  ok: boolean;
  badPixels: number;
  badFraction: number;
  maxDiff: number;
  pixelmatchCount: number;
  diff: Uint8Array;
}

export function compareRGBA(
  actual: Uint8Array | Uint8ClampedArray,
  expected: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  tol: Tolerance = {},
): Comparison {
  const channel = tol.channel ?? 2;
  const fraction = tol.fraction ?? 0.001;
  if (actual.length !== expected.length) throw new Error(`size mismatch: ${actual.length} vs ${expected.length} bytes`);
  let bad = 0;
  let maxDiff = 0;
  for (let i = 0; i < actual.length; i += 4) {
    const aa = actual[i + 3]! / 255;
    const ea = expected[i + 3]! / 255;
    let m = Math.abs(actual[i + 3]! - expected[i + 3]!);
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(actual[i + c]! * aa - expected[i + c]! * ea));
    if (m > maxDiff) maxDiff = m;
    if (m > channel + 1e-9) bad++;
  }
  const diff = new Uint8Array(width * height * 4);
  const pixelmatchCount = pixelmatch(actual, expected, diff, width, height, { threshold: 0.05 });
  const badFraction = bad / (width * height);
  return { ok: badFraction <= fraction, badPixels: bad, badFraction, maxDiff, pixelmatchCount, diff };
}
