// The machine's speed at a moment, independent of tilegraph's code: wall milliseconds of two fixed
// workloads in this one thread, median of 9 after 12 warm-ups (deflate reaches its steady speed only after several calls). `js`: a 3x3 box filter over a
// 512x512 Float32Array, 8 passes (typed-array arithmetic, as our kernels do); `zlib`: node:zlib
// deflating a fixed 1 MiB of mixed noise and runs at level 6 (native code). The same inputs and
// code every run, so two runs' figures compare the machine, not a change: `npm run bench` prints
// and records them (bench/out/speed.json) before and after its rows, and the README's tables say
// how fast the VM was while they ran. Lower is faster.
// Usage: node bench/speed.mjs   (or import { speed } from './speed.mjs')
import { deflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const N = 512;

function boxPasses(src, dst, passes) {
  for (let p = 0; p < passes; p++) {
    for (let y = 1; y < N - 1; y++) {
      for (let x = 1; x < N - 1; x++) {
        const i = y * N + x;
        dst[i] = (src[i - N - 1] + src[i - N] + src[i - N + 1] + src[i - 1] + src[i] + src[i + 1] + src[i + N - 1] + src[i + N] + src[i + N + 1]) / 9;
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src[N * 200 + 200];
}

/** 1 MiB: a xorshift stream broken by runs, so deflate both matches and codes literals. */
function zlibInput() {
  const b = Buffer.alloc(1 << 20);
  let s = 0x9e3779b9;
  for (let i = 0; i < b.length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    b[i] = (i >> 6) % 3 === 0 ? 32 : s & 0x3f;
  }
  return b;
}

function median(f) {
  for (let i = 0; i < 12; i++) f();
  const t = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    f();
    t.push(performance.now() - t0);
  }
  t.sort((a, b) => a - b);
  return +t[4].toFixed(2);
}

/** { js, zlib, at }: the two workloads' median wall ms and when they ran. */
export function speed() {
  const a = new Float32Array(N * N);
  for (let i = 0; i < a.length; i++) a[i] = (i * 2654435761) % 1000;
  const b = new Float32Array(N * N);
  const input = zlibInput();
  return { js: median(() => boxPasses(a.slice(), b, 8)), zlib: median(() => deflateSync(input, { level: 6 })), at: new Date().toISOString() };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(speed()));
