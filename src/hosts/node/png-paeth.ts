// The Node host's PNG rows in WebAssembly: Paeth rows of an RGB PNG unfiltered into RGBA8 words
// (png-paeth.wat: Paeth is most rows of a typical DEM tile and the slowest filter in JavaScript;
// the other filters stay in png-decode.ts), and RGB elevation rows unfiltered and converted to
// metres (dem-row.wat). Without WebAssembly the TypeScript rows run.
import { type WasmKernels, wasmKernels } from '../../util/wasm-kernels.js';

interface Exports {
  /** One RGB row at byte `s` (after its filter byte) into RGBA words at `o`; the row above at o - ostride. */
  paeth(s: number, o: number, width: number, ostride: number): void;
}

const kernels = wasmKernels<Exports>('png-paeth');

/** The instance (its memory holds the rows while a tile decodes), or null without WebAssembly. */
export function paethKernels(): WasmKernels<Exports> | null {
  return kernels();
}

interface DemExports {
  /**
   * One RGB row at byte `s` (after its filter byte), filter `filter` (0-4), unfiltered against the
   * row above at `prev` into `cur` (8 bytes a pixel: R, G, B as 16-bit lanes and one spare lane)
   * and converted to metres at `out` (f32): (R * 65536 + G * 256 + B) * scale + offset, computed in
   * f64 and rounded once to f32, as the TypeScript loop of src/sources/dem.ts does.
   */
  demRow(s: number, prev: number, cur: number, out: number, width: number, filter: number, scale: number, offset: number): void;
}

const demKernelsOnce = wasmKernels<DemExports>('dem-row');

/** The RGB-rows-to-metres kernel (WebAssembly SIMD), or null where it is unavailable. */
export function demKernels(): WasmKernels<DemExports> | null {
  return demKernelsOnce();
}
