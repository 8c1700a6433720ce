// displace on the CPU: bilinear reads of the padded input at offsets from the displacement raster
// (plan.ts). `displaceReference` reads every pixel's four neighbours per channel through the
// boundary rule; `displace`, which the op runs, gives the same values bit for bit (displace.test.ts
// compares them): a row whose reads all lie inside the world and the input view (every row but
// those within the amplitude of the world's north and south edges) skips the boundary rule, and the
// four channels share one set of neighbour offsets; those rows run in WebAssembly SIMD where it is
// available (displace.wat, the same arithmetic).
import { acquire } from '../../backends/cpu/pool.js';
import { isZeroPixel, markUniform, uniformOf } from '../../backends/cpu/uniform.js';
import { boundaryRow, type DisplacePlan } from './plan.js';
import { displaceFiniteSimd, displaceRowsSimd } from './simd.js';

// Kept on purpose beside displace(): the plain kernel, the oracle the fast path is tested against
// with Object.is (issue 25: the TypeScript kernel stays the reference); readOne repeats its reads.
/** src: RGBA sw x sh (the canvas grown by p.pad); disp: RGBA w x h (the canvas). Every read on its own. */
export function displaceReference(src: Float32Array, sw: number, sh: number, disp: Float32Array, w: number, h: number, p: DisplacePlan): Float32Array {
  const out = acquire(w * h * 4, false);
  const kx = 2 * p.ampX,
    ky = 2 * p.ampY;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const o = (j * w + i) * 4;
      const da = disp[o + 3]!;
      // Offsets clamp to the amplitude (a displacement outside [0, A] cannot read past the pad).
      let dx = (disp[o]! - 0.5 * da) * kx,
        dy = (disp[o + 1]! - 0.5 * da) * ky;
      dx = dx < -p.ampX ? -p.ampX : dx > p.ampX ? p.ampX : dx;
      dy = dy < -p.ampY ? -p.ampY : dy > p.ampY ? p.ampY : dy;
      const sx = i + p.pad + dx;
      const sy = j + p.pad + dy;
      const x0 = Math.floor(sx),
        y0 = Math.floor(sy);
      const fx = sx - x0,
        fy = sy - y0;
      const xa = x0 < 0 ? 0 : x0 >= sw ? sw - 1 : x0;
      const xb = x0 + 1 < 0 ? 0 : x0 + 1 >= sw ? sw - 1 : x0 + 1;
      const ya = boundaryRow(y0, p, sh),
        yb = boundaryRow(y0 + 1, p, sh);
      for (let c = 0; c < 4; c++) {
        const v00 = ya < 0 ? 0 : src[(ya * sw + xa) * 4 + c]!;
        const v10 = ya < 0 ? 0 : src[(ya * sw + xb) * 4 + c]!;
        const v01 = yb < 0 ? 0 : src[(yb * sw + xa) * 4 + c]!;
        const v11 = yb < 0 ? 0 : src[(yb * sw + xb) * 4 + c]!;
        const top = v00 + (v10 - v00) * fx;
        const bottom = v01 + (v11 - v01) * fx;
        out[o + c] = top + (bottom - top) * fy;
      }
    }
  }
  return out;
}

/** The same values as displaceReference, bit for bit; src: RGBA sw x sh (the canvas grown by p.pad); disp: RGBA w x h. */
export function displace(src: Float32Array, sw: number, sh: number, disp: Float32Array, w: number, h: number, p: DisplacePlan): Float32Array {
  const out = acquire(w * h * 4, false);
  const { ampX, ampY, pad } = p;
  const kx = 2 * ampX,
    ky = 2 * ampY;
  // Offsets are clamped to the amplitudes, so the columns read lie in [i + pad - ampX, i + pad +
  // ampX + 1], inside [0, sw) as pad >= ampX + 1; the rows read by row j lie in [j + pad - ampY,
  // j + pad + ampY + 1]: where those are inside the world and the view, boundaryRow returns them
  // unchanged. Other rows (and NaN offsets) take the reference's path.
  const lo = Math.max(p.worldTop, 0);
  const hi = Math.min(p.worldBottom, sh);
  const xOk = pad >= ampX + 1 && sw >= w + 2 * pad;
  const plainRow = (j: number) => xOk && Math.floor(j + pad - ampY) >= lo && Math.floor(j + pad + ampY) + 1 < hi;
  // The plain rows form one run (the first test holds from some row on, the second up to some
  // row): they run in WebAssembly SIMD (simd.ts) where it is available.
  let ja = 0;
  while (ja < h && !plainRow(ja)) ja++;
  let jb = ja;
  while (jb < h && plainRow(jb)) jb++;
  const left = jb > ja ? displaceRowsSimd(src, sw, sh, disp, w, p, ja, jb, out) : null;
  if (left) {
    for (const pi of left) {
      const o = pi * 4;
      const j = Math.floor(pi / w);
      const da = disp[o + 3]!;
      let dx = (disp[o]! - 0.5 * da) * kx,
        dy = (disp[o + 1]! - 0.5 * da) * ky;
      dx = dx < -ampX ? -ampX : dx > ampX ? ampX : dx;
      dy = dy < -ampY ? -ampY : dy > ampY ? ampY : dy;
      readOne(src, sw, sh, pi - j * w + pad + dx, j + pad + dy, p, out, o);
    }
  }
  for (let j = 0; j < h; j++) {
    if (left && j === ja) j = jb;
    if (j >= h) break;
    const plain = plainRow(j);
    let o = j * w * 4;
    for (let i = 0; i < w; i++, o += 4) {
      const da = disp[o + 3]!;
      let dx = (disp[o]! - 0.5 * da) * kx,
        dy = (disp[o + 1]! - 0.5 * da) * ky;
      dx = dx < -ampX ? -ampX : dx > ampX ? ampX : dx;
      dy = dy < -ampY ? -ampY : dy > ampY ? ampY : dy;
      const sx = i + pad + dx;
      const sy = j + pad + dy;
      const x0 = Math.floor(sx),
        y0 = Math.floor(sy);
      if (!plain || x0 !== x0 || y0 !== y0) {
        readOne(src, sw, sh, sx, sy, p, out, o);
        continue;
      }
      const fx = sx - x0,
        fy = sy - y0;
      const a = (y0 * sw + x0) * 4;
      const b = a + sw * 4;
      let v00 = src[a]!,
        v10 = src[a + 4]!,
        v01 = src[b]!,
        v11 = src[b + 4]!;
      let top = v00 + (v10 - v00) * fx;
      let bottom = v01 + (v11 - v01) * fx;
      out[o] = top + (bottom - top) * fy;
      v00 = src[a + 1]!;
      v10 = src[a + 5]!;
      v01 = src[b + 1]!;
      v11 = src[b + 5]!;
      top = v00 + (v10 - v00) * fx;
      bottom = v01 + (v11 - v01) * fx;
      out[o + 1] = top + (bottom - top) * fy;
      v00 = src[a + 2]!;
      v10 = src[a + 6]!;
      v01 = src[b + 2]!;
      v11 = src[b + 6]!;
      top = v00 + (v10 - v00) * fx;
      bottom = v01 + (v11 - v01) * fx;
      out[o + 2] = top + (bottom - top) * fy;
      v00 = src[a + 3]!;
      v10 = src[a + 7]!;
      v01 = src[b + 3]!;
      v11 = src[b + 7]!;
      top = v00 + (v10 - v00) * fx;
      bottom = v01 + (v11 - v01) * fx;
      out[o + 3] = top + (bottom - top) * fy;
    }
  }
  return out;
}

/** One output pixel the reference's way (its reads clamped and through the boundary rule). */
function readOne(src: Float32Array, sw: number, sh: number, sx: number, sy: number, p: DisplacePlan, out: Float32Array, o: number): void {
  const x0 = Math.floor(sx),
    y0 = Math.floor(sy);
  const fx = sx - x0,
    fy = sy - y0;
  const xa = x0 < 0 ? 0 : x0 >= sw ? sw - 1 : x0;
  const xb = x0 + 1 < 0 ? 0 : x0 + 1 >= sw ? sw - 1 : x0 + 1;
  const ya = boundaryRow(y0, p, sh),
    yb = boundaryRow(y0 + 1, p, sh);
  for (let c = 0; c < 4; c++) {
    const v00 = ya < 0 ? 0 : src[(ya * sw + xa) * 4 + c]!;
    const v10 = ya < 0 ? 0 : src[(ya * sw + xb) * 4 + c]!;
    const v01 = yb < 0 ? 0 : src[(yb * sw + xa) * 4 + c]!;
    const v11 = yb < 0 ? 0 : src[(yb * sw + xb) * 4 + c]!;
    const top = v00 + (v10 - v00) * fx;
    const bottom = v01 + (v11 - v01) * fx;
    out[o + c] = top + (bottom - top) * fy;
  }
}

/**
 * The displace of an input marked transparent +0 everywhere (src/backends/cpu/uniform.ts: open sea
 * under a land fill), as `displace` gives it without reading a pixel: every read is a +0 input
 * pixel or the transparent boundary's 0, so each channel is 0 + (0 - 0) f = +0 wherever a finite
 * offset lands; only a NaN offset (a non-finite R, G or A of the displacement) makes NaN, and then
 * this returns undefined (the kernel runs). The output is zero-filled and marked +0.
 */
export function displaceUniform(src: Float32Array, disp: Float32Array, w: number, h: number): Float32Array | undefined {
  const mark = uniformOf(src);
  if (!mark || !isZeroPixel(mark)) return undefined;
  const d = uniformOf(disp) ?? disp;
  const n = d === disp ? w * h * 4 : 4;
  // The same test over a canvas in the arena in WebAssembly SIMD (displace.wat `finite`).
  const finite = d === disp && disp.length === n ? displaceFiniteSimd(disp) : undefined;
  if (finite === false) return undefined;
  for (let i = finite ? n : 0; i < n; i += 4) {
    // x - x is 0 for a finite x, NaN for NaN and +-Infinity
    if (d[i]! - d[i]! !== 0 || d[i + 1]! - d[i + 1]! !== 0 || d[i + 3]! - d[i + 3]! !== 0) return undefined;
  }
  const out = acquire(w * h * 4); // zeroed
  markUniform(out, mark);
  return out;
}
