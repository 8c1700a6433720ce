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

import { arenaAlloc, arenaFree, arenaHasRoom, isArenaBuffer } from '../../util/wasm-arena.js';
import { forgetUniform, isZeroPixel, uniformOf } from './uniform.js';

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
 * A zero-filled Float32Array of `length`, from the pool when one is free. `zero: false` skips the
 * fill for callers that write every element before reading any.
 */
export function acquire(length: number, zero = true): Float32Array {
  const list = free.get(length);
  const buf = list && take(list, zero);
  if (buf) {
    order.delete(buf);
    pooledBytes -= buf.byteLength;
    if (zero && !zeroed.has(buf)) buf.fill(0);
    zeroed.delete(buf);
    return buf;
  }
  return (length >= MIN_POOLED && inArenaEvicting(length, zero)) || new Float32Array(length);
}

/**
 * A new arena buffer of `length`; when the arena has no room, pooled arena buffers are dropped,
 * least recently released first, until it has (so a server turning to another style's canvas sizes
 * moves them into the arena), or undefined when even that leaves no room.
 */
function inArenaEvicting(length: number, zero: boolean): Float32Array | undefined {
  let got = arenaAlloc(length, zero);
  if (got) return got;
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
 * The buffer of `list` to hand out: the one released last, except that a caller asking for zeros
 * gets the last one released zeroed (no fill) and any other caller the last one not zeroed (keeping
 * the zeroed ones for callers that need them), where there is one.
 */
function take(list: Float32Array[], zero: boolean): Float32Array | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    if (zeroed.has(list[i]!) === zero) return list.splice(i, 1)[0];
  }
  return list.pop();
}

/** Give a buffer back; the caller must not use it afterwards. */
export function release(buf: Float32Array): void {
  const mark = uniformOf(buf);
  forgetUniform(buf); // whoever takes it next writes it
  if (buf.length < MIN_POOLED) return; // small
  const arena = isArenaBuffer(buf);
  if (!arena && (buf.byteOffset !== 0 || buf.length !== buf.buffer.byteLength / 4)) return; // a view
  // An ordinary buffer the arena now has room for is left to the collector: the next canvas of its
  // size is placed in the arena.
  if (!arena && arenaHasRoom(buf.length)) return;
  if (buf.byteLength > POOL_MAX_BYTES || order.has(buf)) return;
  let list = free.get(buf.length);
  if (!list) free.set(buf.length, (list = []));
  if (list.length >= MAX_PER_SIZE) drop(list[0]!);
  list.push(buf);
  order.add(buf);
  if (mark && isZeroPixel(mark)) zeroed.add(buf);
  pooledBytes += buf.byteLength;
  while (pooledBytes > POOL_MAX_BYTES) drop(order.values().next().value!);
}

function drop(buf: Float32Array): void {
  const list = free.get(buf.length)!;
  list.splice(list.indexOf(buf), 1);
  if (!list.length) free.delete(buf.length);
  order.delete(buf);
  pooledBytes -= buf.byteLength;
  arenaFree(buf);
}

/** Free buffers held now (tests, memory reports). */
export function poolStats(): { buffers: number; bytes: number; sizes: number } {
  return { buffers: order.size, bytes: pooledBytes, sizes: free.size };
}
