// Reuse of canvas-sized Float32 buffers between nodes and renders: a fresh 512 px RGBA canvas
// costs more in page faults than most kernels spend on it. The render loop releases a node's
// buffer once its last consumer has run; a released buffer is zeroed when it is handed out again.
// Module-level but safe: JS runs one kernel at a time and a buffer has one owner until released.

const MAX_PER_SIZE = 6;
const MAX_BYTES = 96 * 1024 * 1024;
const free = new Map<number, Float32Array[]>();
let pooledBytes = 0;

/**
 * A zero-filled Float32Array of `length`, from the pool when one is free. `zero: false` skips the
 * fill for callers that write every element before reading any.
 */
export function acquire(length: number, zero = true): Float32Array {
  const list = free.get(length);
  const buf = list?.pop();
  if (buf) {
    pooledBytes -= buf.byteLength;
    if (zero) buf.fill(0);
    return buf;
  }
  return new Float32Array(length);
}

/** Give a buffer back; the caller must not use it afterwards. */
export function release(buf: Float32Array): void {
  if (buf.length < 4096 || buf.byteOffset !== 0 || buf.length !== buf.buffer.byteLength / 4) return; // small or a view
  let list = free.get(buf.length);
  if (!list) free.set(buf.length, (list = []));
  if (list.length >= MAX_PER_SIZE || pooledBytes + buf.byteLength > MAX_BYTES || list.includes(buf)) return;
  list.push(buf);
  pooledBytes += buf.byteLength;
}
