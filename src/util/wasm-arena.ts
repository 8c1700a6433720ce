// The canvas arena: one WebAssembly.Memory per thread, of a fixed size and never grown, in which
// the CPU backend's buffer pool (src/backends/cpu/pool.ts) places canvas-sized Float32Arrays, so
// the SIMD kernels whose modules import their memory (src/util/wasm-kernels.ts `onArena`) read
// their inputs and write their outputs where they lie instead of copying whole canvases into a
// scratch memory of their own and back (issue 25). Never grown, because growing a memory detaches
// every view of it: a canvas view stays valid for the thread's life. What does not fit (a canvas
// larger than the room left, a 4096 px render's canvases) is an ordinary Float32Array, and the
// kernels copy it through their scratch memory as before: the same kernels, so the same bits.
//
// Bounded: ARENA_BYTES, committed only where written (the pages of a WebAssembly memory are the
// system's zero pages until touched). A block goes back to the arena when the pool drops its
// buffer, or when its view is collected (FinalizationRegistry: a canvas never released, such as a
// node cache's, does not keep its block). A block's view is the only handle on it: code that keeps
// only a subarray of a pooled canvas after dropping the canvas itself must not exist (none does:
// crops copy, src/backends/cpu/raster.ts).

/** Bytes of the arena by default: a z4 watercolour tile's live canvases (304 px) many times over. */
export const ARENA_BYTES = 48 * 1024 * 1024;
/** The most setArenaBytes accepts. */
export const ARENA_MAX_BYTES = 1024 * 1024 * 1024;
/** This thread's arena size (setArenaBytes before the arena is first used, else ARENA_BYTES). */
let arenaBytes = ARENA_BYTES;
/**
 * The arena's first bytes, never handed out: the constant tables of the modules instantiated on
 * it, which their data segments write there at instantiation (noise.wat's gradients, 384 bytes at 0).
 */
export const ARENA_RESERVED_BYTES = 4096;
/** Blocks start on cache lines. */
const ALIGN = 64;

let memory: WebAssembly.Memory | null | undefined;
/** Free blocks as [start, end) byte ranges, sorted and never adjacent (coalesced). */
const freeStarts: number[] = [];
const freeEnds: number[] = [];
/** Live blocks: start -> end. */
const live = new Map<number, number>();
/** Bytes below this have been handed out at some time; above it the memory still holds zeros. */
let clean = 0;
/** Every view the arena handed out (and not yet taken back). */
const views = new WeakSet<Float32Array>();
const collected = typeof FinalizationRegistry === 'undefined' ? undefined : new FinalizationRegistry<number>((at) => freeBlock(at));

let enabled = true;

/**
 * Size this thread's arena, before anything uses it: `bytes` rounded up to 64 KiB pages, clamped to
 * [ARENA_BYTES, ARENA_MAX_BYTES]. A thread whose node cache keeps canvases (the preview's render
 * worker: src/hosts/browser/engine.ts) asks for its cache's budget on top of the default, since
 * the cache's canvases stay where they were made: in a 48 MiB arena they filled it, and the
 * canvases of the next renders landed outside it, where each SIMD kernel copies its inputs in and
 * its output back (toner's `road` slider: 497 of 568 blends copying all three canvases). Pages are
 * committed only where written, so the size is an upper bound, not an allocation. Returns whether
 * the size was taken (false once the arena exists).
 */
export function setArenaBytes(bytes: number): boolean {
  if (memory !== undefined) return false;
  const pages = Math.ceil(Math.min(ARENA_MAX_BYTES, Math.max(ARENA_BYTES, Number.isFinite(bytes) ? bytes : ARENA_BYTES)) / 65536);
  arenaBytes = pages * 65536;
  return true;
}

/** This thread's arena size in bytes (the default, or what setArenaBytes set). */
export function arenaCapacity(): number {
  return arenaBytes;
}
/**
 * Tests: turn the placing of new buffers in the arena off (the pool as where WebAssembly is
 * missing) or on again; buffers already placed stay valid.
 */
export function setArenaEnabled(on: boolean): void {
  enabled = on;
}

/** The arena's memory, created on first use; null where WebAssembly is missing or refuses it. */
export function arenaMemory(): WebAssembly.Memory | null {
  if (memory === undefined) {
    memory = null;
    // A size setArenaBytes raised that the engine refuses (a browser short of address space) falls
    // back to the default rather than to no arena at all.
    for (const bytes of arenaBytes > ARENA_BYTES ? [arenaBytes, ARENA_BYTES] : [arenaBytes]) {
      try {
        const pages = bytes / 65536;
        memory = typeof WebAssembly === 'undefined' ? null : new WebAssembly.Memory({ initial: pages, maximum: pages });
        arenaBytes = bytes;
        break;
      } catch {
        memory = null;
      }
    }
    if (memory) {
      freeStarts.push(ARENA_RESERVED_BYTES);
      freeEnds.push(arenaBytes);
    }
  }
  return memory;
}

/**
 * A Float32Array of `length` inside the arena, or undefined when no free block is large enough.
 * Zero-filled when `zero` (a block never handed out before is zero already).
 */
export function arenaAlloc(length: number, zero: boolean): Float32Array | undefined {
  const mem = enabled ? arenaMemory() : null;
  if (!mem) return undefined;
  const size = (length * 4 + ALIGN - 1) & ~(ALIGN - 1);
  for (let i = 0; i < freeStarts.length; i++) {
    const at = freeStarts[i]!;
    if (freeEnds[i]! - at < size) continue;
    if (freeEnds[i]! - at === size) {
      freeStarts.splice(i, 1);
      freeEnds.splice(i, 1);
    } else freeStarts[i] = at + size;
    live.set(at, at + size);
    const view = new Float32Array(mem.buffer, at, length);
    if (zero && at < clean) view.fill(0);
    clean = Math.max(clean, at + size);
    views.add(view);
    collected?.register(view, at, view);
    return view;
  }
  return undefined;
}

/** Whether new buffers are placed in the arena (WebAssembly is there, and tests left it on). */
export function arenaUsable(): boolean {
  return enabled && arenaMemory() !== null;
}

/** Whether a block for a Float32Array of `length` is free now. */
export function arenaHasRoom(length: number): boolean {
  if (!enabled || !arenaMemory()) return false;
  const size = (length * 4 + ALIGN - 1) & ~(ALIGN - 1);
  for (let i = 0; i < freeStarts.length; i++) if (freeEnds[i]! - freeStarts[i]! >= size) return true;
  return false;
}

/** Whether `buf` is a view the arena handed out and has not taken back. */
export function isArenaBuffer(buf: Float32Array): boolean {
  return views.has(buf);
}

/** Whether `buf` lies in the arena's memory (an arena canvas or a view of one). */
export function inArena(buf: ArrayBufferView): boolean {
  return memory != null && buf.buffer === memory.buffer;
}

/** Take back the block of `buf` (an arena view); the caller must not use `buf` afterwards. */
export function arenaFree(buf: Float32Array): void {
  if (!views.delete(buf)) return;
  collected?.unregister(buf);
  freeBlock(buf.byteOffset);
}

function freeBlock(at: number): void {
  const end = live.get(at);
  if (end === undefined) return;
  live.delete(at);
  // The first free block after this one; merge with it and with the one before where they touch.
  let i = 0;
  while (i < freeStarts.length && freeStarts[i]! < at) i++;
  const joinsNext = i < freeStarts.length && freeStarts[i] === end;
  const joinsPrev = i > 0 && freeEnds[i - 1] === at;
  if (joinsPrev && joinsNext) {
    freeEnds[i - 1] = freeEnds[i]!;
    freeStarts.splice(i, 1);
    freeEnds.splice(i, 1);
  } else if (joinsPrev) freeEnds[i - 1] = end;
  else if (joinsNext) freeStarts[i] = at;
  else {
    freeStarts.splice(i, 0, at);
    freeEnds.splice(i, 0, end);
  }
}

/** The arena's state (tests, memory reports): bytes in live blocks, free blocks, bytes ever touched. */
export function arenaStats(): { liveBytes: number; blocks: number; freeBlocks: number; touchedBytes: number } {
  let liveBytes = 0;
  for (const [at, end] of live) liveBytes += end - at;
  return { liveBytes, blocks: live.size, freeBlocks: freeStarts.length, touchedBytes: clean };
}
