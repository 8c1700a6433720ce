// The SIMD kernels' WebAssembly modules as instances with a scratch memory. Their sources are the
// .wat files beside the TypeScript that calls them (src/ops/<op>/<op>.wat, src/hosts/node/*.wat);
// `npm run build` compiles them into src/generated/wasm.ts (scripts/gen-wasm.mjs). Where
// WebAssembly SIMD is missing, a module's loader gives null and the TypeScript kernels run.
import { WASM } from '../generated/wasm.js';
import { arenaMemory } from './wasm-arena.js';

/**
 * An instance: its exports and views over its memory, the scratch space of one call at a time. A
 * module that imports its memory (`(import "env" "mem" (memory 1))`) gets a scratch memory of its
 * own here, and a second instance on the canvas arena (`onArena`) for canvases that lie there.
 */
export class WasmKernels<T> {
  readonly fn: T;
  private readonly mem: WebAssembly.Memory;
  private readonly module: WebAssembly.Module;
  private arenaFn: T | null | undefined;
  constructor(bytes: Uint8Array<ArrayBuffer>) {
    this.module = new WebAssembly.Module(bytes);
    const imported = WebAssembly.Module.imports(this.module).some((i) => i.kind === 'memory');
    const mem = imported ? new WebAssembly.Memory({ initial: 1 }) : undefined;
    const exp = new WebAssembly.Instance(this.module, mem ? { env: { mem } } : {}).exports as Record<string, unknown>;
    this.fn = exp as T;
    this.mem = mem ?? (exp.mem as WebAssembly.Memory);
    if (!imported) this.arenaFn = null;
  }
  /**
   * The exports of the module instantiated on the canvas arena (src/util/wasm-arena.ts): byte
   * offsets are the arena's, so a kernel reads and writes arena canvases where they lie. Null for
   * a module with a memory of its own, or without an arena.
   */
  onArena(): T | null {
    if (this.arenaFn === undefined) {
      const mem = arenaMemory();
      this.arenaFn = mem ? (new WebAssembly.Instance(this.module, { env: { mem } }).exports as T) : null;
    }
    return this.arenaFn;
  }
  /** Make the memory at least `bytes` long; views taken before a grow are stale. */
  reserve(bytes: number): void {
    const need = bytes - this.mem.buffer.byteLength;
    if (need > 0) this.mem.grow(Math.ceil(need / 65536));
  }
  /** The memory's size in bytes now (it only grows). */
  get bytes(): number {
    return this.mem.buffer.byteLength;
  }
  f32(at: number, length: number): Float32Array {
    return new Float32Array(this.mem.buffer, at, length);
  }
  f64(at: number, length: number): Float64Array {
    return new Float64Array(this.mem.buffer, at, length);
  }
  u8(at: number, length: number): Uint8Array {
    return new Uint8Array(this.mem.buffer, at, length);
  }
  u32(at: number, length: number): Uint32Array {
    return new Uint32Array(this.mem.buffer, at, length);
  }
}

function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

function instantiate<T>(name: string): WasmKernels<T> | null {
  const base64 = WASM[name];
  if (base64 === undefined) throw new Error(`no WebAssembly module ${name} in src/generated/wasm.ts (stale: npm run build)`);
  if (typeof WebAssembly === 'undefined') return null;
  try {
    const bytes = fromBase64(base64);
    return WebAssembly.validate(bytes) ? new WasmKernels<T>(bytes) : null;
  } catch {
    return null;
  }
}

/**
 * The loader of module `name` (its .wat file's name): instantiated once, on first use; null where
 * WebAssembly (with SIMD) is unavailable or refuses the module.
 */
export function wasmKernels<T>(name: string): () => WasmKernels<T> | null {
  let k: WasmKernels<T> | null | undefined;
  return () => {
    if (k === undefined) k = instantiate<T>(name);
    return k;
  };
}
