// Kernels a host may bind in place of the core's WebAssembly ones (the core imports nothing from
// Node): the Node host binds its addon's (native/kernels.c, src/hosts/node/kernels.ts) where the
// CPU has AVX-512; browsers bind none. A bound kernel gives the same values as the kernel it
// replaces, bit for bit (each op's tests compare it with the TypeScript reference).

/** The noise op's octaves (native/kernels.c `noise`): true when it wrote `out`, false to fall back. */
export type NativeNoise = (
  kind: 0 | 1,
  cells: Uint32Array,
  cols: Uint32Array,
  rows: Uint32Array,
  width: number,
  height: number,
  octaves: number,
  seeds: Uint32Array,
  channels: number,
  raster: 0 | 1,
  demand: Int32Array | null,
  acc: Float64Array,
  out: Float32Array,
  generic: 0 | 1,
) => boolean;

export interface NativeKernels {
  /** What runs, for start-up lines and /metrics: e.g. `addon (avx512)`. */
  name: string;
  noise: NativeNoise;
}

let bound: NativeKernels | null = null;

/** Binds a host's kernels (null: the core's own run again). */
export function bindNativeKernels(kernels: NativeKernels | null): void {
  bound = kernels;
}

/** The bound kernels, or null. */
export function nativeKernels(): NativeKernels | null {
  return bound;
}
