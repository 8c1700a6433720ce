// Reuse of canvas-sized Float32 buffers between nodes and renders: a fresh 512 px RGBA canvas
// costs more in page faults than most kernels spend on it. The render loop releases a node's
// buffer once its last consumer has run; a released buffer is zeroed when it is handed out again.
// Module-level but safe: JS runs one kernel at a time and a buffer has one owner until released.
//
// A buffer of canvas size is placed in the thread's canvas arena (src/util/wasm-arena.ts) while it
// has room, so the SIMD kernels read and write it in place; the arena takes a block back when the
// pool drops its buffer (or the buffer is collected).
//
// Bounded by bytes, least recently released first out: a server rendering several styles (a
// gallery) meets many canvas sizes, and a pool that refused new buffers once full kept the first
// style's sizes for good (up to its whole budget per render thread, issue 23).

import { arenaAlloc, arenaFree, arenaUsable, isArenaBuffer } from '../../util/wasm-arena.js';
import { fillPixel, forgetUniform, isZeroPixel, markUniform, uniformOf } from './uniform.js';

const MAX_PER_SIZE = 6;
/** Bytes of free buffers kept per thread: six of one @2x canvas (656 px, 6.9 MB each) and more. */
export const POOL_MAX_BYTES = 64 * 1024 * 1024;
const free = new Map<number, Float32Array[]>();
/** Every pooled buffer, least recently released first. */
const order = new Set<Float32Array>();
let pooledBytes = 0;
/** Pooled buffers released holding +0 everywhere (marked so, src/backends/cpu/uniform.ts): handed out zeroed without a fill. */
const zeroed = new WeakSet<Float32Array>();
/**
 * Pooled buffers released holding one other value everywhere (marked so): the value's 4 floats. A
 * caller asking for that very value (acquireUniform: the sea's solid of the next tile) gets one
 * without a fill.
 */
const filledWith = new WeakMap<Float32Array, Float32Array>();

/**
 * A zero-filled Float32Array of `length`, from the pool when one is free. `zero: false` skips the
 * fill for callers that write every element before reading any. A buffer in the canvas arena is
 * preferred: a pooled one, else a new block (making room by dropping pooled arena buffers of other
 * sizes), else a pooled ordinary buffer, else a new one.
 */
export function acquire(length: number, zero = true): Float32Array {
  const pooled = arenaUsable() ? take(length, zero, true) : undefined;
  if (pooled) return pooled;
  return (length >= MIN_POOLED && inArenaEvicting(length, zero)) || take(length, zero, false) || new Float32Array(length);
}

/**
 * A Float32Array of `length` outside the canvas arena, not zeroed (the caller writes every
 * element): a raster handed to the caller of a render, who owns it (and may transfer its buffer).
 */
export function acquireOwn(length: number): Float32Array {
  return take(length, false, false) || new Float32Array(length);
}

/**
 * A buffer of `length` holding `px` (premultiplied RGBA, 4 floats) at every pixel, marked so
 * (src/backends/cpu/uniform.ts): a pooled buffer released marked with exactly these bits is
 * handed out as it is (a solid sea, the last tile's for the next tile's: no fill of the canvas),
 * else one is acquired and filled.
 */
export function acquireUniform(length: number, px: ArrayLike<number>): Float32Array {
  const one = Float32Array.of(px[0]!, px[1]!, px[2]!, px[3]!);
  const zero = isZeroPixel(one);
  let buf = zero ? undefined : takeFilled(length, one);
  if (!buf) {
    buf = acquire(length, zero);
    if (!zero) fillPixel(buf, one);
  }
  if (length) markUniform(buf, one);
  return buf;
}

/** A pooled buffer of `length` released holding `one` everywhere (its bits), the arena's first; taken out of the pool. */
function takeFilled(length: number, one: Float32Array): Float32Array | undefined {
  const list = free.get(length);
  if (!list) return undefined;
  const want = new Int32Array(one.buffer);
  let pick = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    const v = filledWith.get(list[i]!);
    if (!v) continue;
    const bits = new Int32Array(v.buffer);
    if (bits[0] !== want[0] || bits[1] !== want[1] || bits[2] !== want[2] || bits[3] !== want[3]) continue;
    pick = i;
    if (isArenaBuffer(list[i]!) || !arenaUsable()) break;
  }
  return pick < 0 ? undefined : takeAt(list, pick, length);
}

/** A copy of `buf` outside the arena (acquireOwn), with its one-value mark; `buf` goes back to the pool. */
export function ownCopy(buf: Float32Array): Float32Array {
  const own = acquireOwn(buf.length);
  own.set(buf);
  const mark = uniformOf(buf);
  if (mark) markUniform(own, mark);
  release(buf);
  return own;
}

/**
 * A new arena buffer of `length`; when the arena has no room, pooled arena buffers are dropped,
 * least recently released first, until it has (so a server turning to another style's canvas sizes
 * moves them into the arena), or undefined when even that leaves no room.
 */
function inArenaEvicting(length: number, zero: boolean): Float32Array | undefined {
  let got = arenaAlloc(length, zero);
  if (got || !arenaUsable()) return got;
  for (const b of [...order]) {
    if (!isArenaBuffer(b)) continue;
    drop(b);
    if ((got = arenaAlloc(length, zero))) return got;
  }
  return undefined;
}

/** Smaller buffers are neither pooled nor placed in the arena. */
const MIN_POOLED = 4096;

/**
 * A pooled buffer of `length` in the arena (`arena`) or outside it, taken out of the pool and
 * zeroed if `zero`: the one released last, except that a caller asking for zeros gets the last one
 * released zeroed (no fill) and any other caller the last one not zeroed (keeping the zeroed ones
 * for callers that need them), where there is one.
 */
function take(length: number, zero: boolean, arena: boolean): Float32Array | undefined {
  const list = free.get(length);
  if (!list) return undefined;
  let pick = -1;
  for (let i = list.length - 1; i >= 0; i--) {
    if (isArenaBuffer(list[i]!) !== arena) continue;
    if (pick < 0) pick = i;
    // a caller asking for zeros: one released zeroed; any other: one holding no known value
    if (zero ? zeroed.has(list[i]!) : !zeroed.has(list[i]!) && !filledWith.has(list[i]!)) {
      pick = i;
      break;
    }
  }
  const wasZeroed = pick >= 0 && zeroed.has(list[pick]!);
  if (pick < 0) return undefined;
  const buf = takeAt(list, pick, length);
  if (zero && !wasZeroed) buf.fill(0);
  return buf;
}

/** Take `list[i]` (of buffers of `length`) out of the pool, with what was known of its values. */
function takeAt(list: Float32Array[], i: number, length: number): Float32Array {
  const buf = list.splice(i, 1)[0]!;
  if (!list.length) free.delete(length);
  order.delete(buf);
  pooledBytes -= buf.byteLength;
  zeroed.delete(buf);
  filledWith.delete(buf);
  return buf;
}

/** Give a buffer back; the caller must not use it afterwards. */
export function release(buf: Float32Array): void {
  const mark = uniformOf(buf);
  forgetUniform(buf); // whoever takes it next writes it
  if (buf.length < MIN_POOLED) return; // small
  const arena = isArenaBuffer(buf);
  if (!arena && (buf.byteOffset !== 0 || buf.length !== buf.buffer.byteLength / 4)) return; // a view
  if (buf.byteLength > POOL_MAX_BYTES || order.has(buf)) return;
  let list = free.get(buf.length);
  if (!list) free.set(buf.length, (list = []));
  if (list.length >= MAX_PER_SIZE) drop(list[0]!);
  list.push(buf);
  order.add(buf);
  if (mark && isZeroPixel(mark)) zeroed.add(buf);
  else if (mark) filledWith.set(buf, mark);
  pooledBytes += buf.byteLength;
  while (pooledBytes > POOL_MAX_BYTES) drop(order.values().next().value!);
}

function drop(buf: Float32Array): void {
  const list = free.get(buf.length)!;
  list.splice(list.indexOf(buf), 1);
  if (!list.length) free.delete(buf.length);
  order.delete(buf);
  pooledBytes -= buf.byteLength;
  filledWith.delete(buf);
  arenaFree(buf);
}

/** Free buffers held now (tests, memory reports). */
export function poolStats(): { buffers: number; bytes: number; sizes: number } {
  return { buffers: order.size, bytes: pooledBytes, sizes: free.size };
}
