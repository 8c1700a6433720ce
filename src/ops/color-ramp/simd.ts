// color-ramp's stops over a scalar field in WebAssembly SIMD (color-ramp.wat): cpu.ts `rampField`'s
// f64 operations in the same order, a pixel's channels as two f64x2, so the pixels are the same
// bits as `rampFieldReference` (and as `rampFieldOpaque` for opaque stops at opacity 1: alpha is
// then exactly 1 and multiplying by it changes nothing). Where WebAssembly is missing, or the
// stop table is larger than RAMP_TABLE_MAX_BYTES, `rampFieldSimd` returns false and the
// TypeScript loop runs.
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { nativeKernels } from '../../util/native-kernels.js';
import { wasmKernels } from '../../util/wasm-kernels.js';
import { isOpaque, type RampTable } from './plan.js';

interface Exports {
  ramp(
    src: number,
    n: number,
    out: number,
    table: number,
    values: number,
    scale: number,
    last: number,
    size: number,
    ends: number,
    opacity: number,
    opaque: number,
  ): void;
}

const kernels = wasmKernels<Exports>('color-ramp');

/** Pixels per kernel call (its memory: 20 bytes a pixel, plus the table): the module never shrinks. */
export const RAMP_SPAN_PIXELS = 1 << 16;
/** Larger stop tables (over ~250 stops) take the TypeScript loop, so the module's memory stays bounded. */
export const RAMP_TABLE_MAX_BYTES = 1 << 22;

/** The table whose entries the module's memory holds now (tables are read-only once baked). */
let loaded: RampTable | undefined;

/**
 * `n` pixels of `src` through the stops of `lut` (straight entries) into `o` (premultiplied RGBA),
 * in spans of RAMP_SPAN_PIXELS (each pixel reads only its own value: the same bits as one call);
 * false without WebAssembly SIMD or for a table over RAMP_TABLE_MAX_BYTES.
 */
export function rampFieldSimd(src: Float32Array, n: number, lut: RampTable, opacity: number, o: Float32Array): boolean {
  const { size, values, table, ends } = lut;
  const last = values.length - 1;
  if (lut.premultiplied || last < 1) return false;
  // A host's native kernel (the Node host's AVX-512 addon): the same arithmetic, ~3x faster.
  const native = nativeKernels()?.ramp;
  if (native) return native(src, n, o, table, values, size, ends, opacity);
  if (table.byteLength > RAMP_TABLE_MAX_BYTES) return false;
  const k = kernels();
  if (!k) return false;
  // Opaque stops at opacity 1: alpha is exactly 1, so the kernel leaves out its products by it.
  const opaque = opacity === 1 && isOpaque(lut) ? 1 : 0;
  // Layout: table, ends, values, scales, then a span's field and its pixels.
  const endsAt = table.byteLength;
  const valuesAt = endsAt + 32;
  const scaleAt = valuesAt + values.length * 8;
  const srcAt = (scaleAt + last * 8 + 15) & ~15;
  if (inArena(src) && inArena(o) && rampOnArena(k.onArena(), src, n, lut, opacity, opaque, o, srcAt)) return true;
  const span = Math.min(n, RAMP_SPAN_PIXELS);
  const outAt = srcAt + span * 4;
  k.reserve(outAt + span * 16);
  if (loaded !== lut) {
    k.f32(0, table.length).set(table);
    k.f32(endsAt, 8).set(ends);
    k.f64(valuesAt, values.length).set(values);
    const sc = k.f64(scaleAt, last);
    for (let s = 0; s < last; s++) sc[s] = (size - 1) / (values[s + 1]! - values[s]!);
    loaded = lut;
  }
  for (let i0 = 0; i0 < n; i0 += span) {
    const m = Math.min(span, n - i0);
    k.f32(srcAt, m).set(src.subarray(i0, i0 + m));
    k.fn.ramp(srcAt, m, outAt, 0, valuesAt, scaleAt, last, size, endsAt, opacity, opaque);
    o.set(k.f32(outAt, m * 4), i0 * 4);
  }
  return true;
}

/**
 * rampFieldSimd where the field and the output lie in the canvas arena (src/util/wasm-arena.ts):
 * the stop table goes into a block of the arena for the call (`tableBytes`: its layout's size) and
 * the kernel reads the field and writes the pixels in place, the same arithmetic in one call.
 * False where the arena has no room for the table.
 */
function rampOnArena(
  fn: Exports | null,
  src: Float32Array,
  n: number,
  lut: RampTable,
  opacity: number,
  opaque: number,
  o: Float32Array,
  tableBytes: number,
): boolean {
  const block = fn ? arenaAlloc(tableBytes / 4, false) : undefined;
  if (!fn || !block) return false;
  try {
    const { size, values, table, ends } = lut;
    const last = values.length - 1;
    const at = block.byteOffset;
    const endsAt = at + table.byteLength;
    const valuesAt = endsAt + 32;
    const scaleAt = valuesAt + values.length * 8;
    block.set(table);
    block.set(ends, table.length);
    const mem = block.buffer;
    new Float64Array(mem, valuesAt, values.length).set(values);
    const sc = new Float64Array(mem, scaleAt, last);
    for (let s = 0; s < last; s++) sc[s] = (size - 1) / (values[s + 1]! - values[s]!);
    fn.ramp(src.byteOffset, n, o.byteOffset, at, valuesAt, scaleAt, last, size, endsAt, opacity, opaque);
    return true;
  } finally {
    arenaFree(block);
  }
}

/** Bytes the module's memory holds now (tests: it stays bounded). */
export const rampMemoryBytes = (): number => kernels()?.bytes ?? 0;
