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

/**
 * The color-ramp op's stops over a scalar field (native/pixels.h `ramp_pixels`): `n` values of
 * `src` as premultiplied RGBA into `out`, the arithmetic of src/ops/color-ramp/cpu.ts `rampField`
 * for a straight RampTable (`size` entries a segment, `values` its stops, `ends` the two end colours).
 * `generic` 1: the addon's portable copy even where AVX-512 runs (tests).
 */
export type NativeRamp = (
  src: Float32Array,
  n: number,
  out: Float32Array,
  table: Float32Array,
  values: Float64Array,
  size: number,
  ends: Float32Array,
  opacity: number,
  generic?: 0 | 1,
) => boolean;

/**
 * blend's `multiply` over (atop: 1) without a mask (native/pixels.h `multiply_pixels`): every
 * pixel of `base` (premultiplied RGBA) with `over`'s into `out` (which may be `base`), the
 * arithmetic of src/ops/blend/cpu.ts `multiply`. `generic` 1: the portable copy (tests).
 */
export type NativeMultiply = (base: Float32Array, over: Float32Array, out: Float32Array, opacity: number, atop: 0 | 1, generic: 0 | 1) => boolean;

/**
 * The PNG encoder's conversion (native/pixels.h `convert_pixels`: src/render/png-rows.wat `convert`):
 * `n` premultiplied float RGBA pixels of `input` to packed straight RGBA8 in `out`; 1 where every
 * alpha is 255. `generic` 1: the portable copy (tests).
 */
export type NativeConvert = (input: Float32Array, out: Int32Array, n: number, generic: 0 | 1) => number;

/**
 * blend's `normal` + `over` without a mask as src/ops/blend/blend.wat `over` computes it, in f32
 * (native/pixels.h `over_pixels`): every pixel of `base` with `over`'s into `out` (which may be
 * `base`), `opacity` rounded to f32. `generic` 1: the portable copy (tests).
 */
export type NativeOver = (base: Float32Array, over: Float32Array, out: Float32Array, opacity: number, generic: 0 | 1) => boolean;

/**
 * blur's convolutions with one weight table (native/pixels.h: src/ops/blur/blur.wat `convY` /
 * `convX` in C, sixteen floats a step, the same f32 sums): `mem` the bytes of the memory the
 * WebAssembly kernel would run on, then that kernel's eight arguments (byte offsets, strides and
 * counts). `generic` 1: the portable copy (tests).
 */
export type NativeConv = (
  mem: Uint8Array,
  a: number,
  b: number,
  c: number,
  d: number,
  e: number,
  f: number,
  wts: number,
  taps: number,
  generic: 0 | 1,
) => boolean;

/**
 * stroke's round dabs (native/dabs.h `dabs_draw`: src/ops/stroke/stroke.wat `draw` in C, eight
 * dabs' profiles at a time, the same bits): `mem` the bytes of the memory the WebAssembly kernel
 * would draw on, then that kernel's sixteen arguments (sizes, counts, byte offsets, hardness, aa).
 * `generic` 1: the portable copy (tests).
 */
export type NativeDabs = (mem: Uint8Array, ...a: [...DabsDrawArgs, generic: 0 | 1]) => boolean;

/** stroke.wat `draw`'s arguments: the canvas's size, the counts, the arrays' byte offsets, hardness and aa. */
export type DabsDrawArgs = [
  W: number,
  H: number,
  count: number,
  runCount: number,
  groups: number,
  geom: number,
  group: number,
  paints: number,
  runs: number,
  runGroup: number,
  out: number,
  layer: number,
  cms: number,
  touched: number,
  hardness: number,
  aa: number,
];

/**
 * stroke's jittered dabs laid (native/dabs.h `lay_dabs`: src/ops/stroke/stroke.wat `lay` in C,
 * eight dabs a step, the same bits): `mem` the bytes of the memory the WebAssembly kernel would
 * write to, the dabs written as f32 [cx, cy, r, m] from byte `at`; `args` that kernel's arguments
 * after its first (ax, ay, ux, uy, sA, k, kEnd, end, shift, sp, baseW, fkey, quad) then its
 * setup's (x0, y0, W, H, reachMax, opacity, sizeJitter, opacityJitter, scatter, widthMax, seed).
 * Returns how many. `generic` 1: the portable copy (tests).
 */
export type NativeLay = (mem: Uint8Array, at: number, args: Float64Array, generic: 0 | 1) => number;

export interface NativeKernels {
  /** What runs, for start-up lines and /metrics: e.g. `addon (avx512)`. */
  name: string;
  noise: NativeNoise;
  ramp?: NativeRamp;
  multiply?: NativeMultiply;
  convert?: NativeConvert;
  over?: NativeOver;
  /** blend's `erase` composite without a mask (native/pixels.h `erase_pixels`: blend.wat `erase`), the same arguments as `over`. */
  erase?: NativeOver;
  convY?: NativeConv;
  convX?: NativeConv;
  dabs?: NativeDabs;
  lay?: NativeLay;
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
