// The Node host's kernels addon (native/kernels.c) in a test of a kernel it has: importing this
// binds it to the core where the CPU has AVX-512 (src/hosts/node/kernels.ts), so a test file that
// imports it runs the addon through the op's own path, and runs the WebAssembly kernel it replaces
// by unbinding it (setNativeKernels(false)).
import { kernelsAddon, kernelsInfo, setNativeKernels } from '../../src/hosts/node/kernels.js';

export const ADDON = kernelsAddon();

/** Says loudly what a test file cannot run here: no addon (a failure with TILEGRAPH_REQUIRE_ADDON=1), or no AVX-512. */
export function announceAddon(file: string): void {
  if (!ADDON) {
    const msg = `${file}: the native kernels' tests SKIPPED: ${kernelsInfo().reason} (scripts/build-native.mjs builds them).`;
    if (process.env.TILEGRAPH_REQUIRE_ADDON === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_ADDON=1 makes this a failure.`);
    console.warn(msg);
  } else if (ADDON.simd !== 'avx512') console.warn(`${file}: this CPU has no AVX-512: the addon's AVX-512 copies SKIPPED (their portable copies are tested).`);
}

/** The fast kernels an op runs here, with whether the addon is bound for them: WebAssembly always, the addon's AVX-512 copy where the CPU has it. */
export const FAST_KERNELS: [string, boolean][] = [['WebAssembly', false], ...(ADDON?.simd === 'avx512' ? [['native AVX-512', true] as [string, boolean]] : [])];

/** Binds the addon (where the CPU has AVX-512) or the core's WebAssembly kernels. */
export const useNative = (on: boolean): void => setNativeKernels(on);
