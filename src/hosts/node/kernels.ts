// The Node host's native CPU kernels: native/kernels.c, built by scripts/build-native.mjs into
// dist/native/kernels.node, bound to the core (src/util/native-kernels.ts) on import where the
// addon loads and the CPU has AVX-512 (every Node host imports this through ./index.ts, the render
// workers included). Elsewhere, or with TILEGRAPH_NATIVE=0, the core's WebAssembly kernels run;
// the values are the same bit for bit either way.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  bindNativeKernels,
  type NativeConv,
  type NativeConvert,
  type NativeDabs,
  type NativeLay,
  type NativeKernels,
  type NativeMultiply,
  type NativeNoise,
  type NativeOver,
  type NativeRamp,
} from '../../util/native-kernels.js';

export interface Addon {
  noise: NativeNoise;
  ramp: NativeRamp;
  multiply: NativeMultiply;
  convert: NativeConvert;
  over: NativeOver;
  erase: NativeOver;
  convY: NativeConv;
  convX: NativeConv;
  dabs: NativeDabs;
  lay: NativeLay;
  simd: string;
}

/** The addon's file (the same path from src/hosts/node under Jest and from dist/hosts/node). */
export const KERNELS_ADDON = fileURLToPath(new URL('../../../dist/native/kernels.node', import.meta.url));

/** What runs the kernels the addon has (the noise op's octaves, the colour ramp, blend's multiply, normal over and erase, blur's convolutions, stroke's round dabs drawn and jittered dabs laid, the PNG encoder's conversion), and why not the addon where it does not. */
export interface KernelsInfo {
  /** `native (avx512)` or `wasm`. */
  name: string;
  reason?: string;
}

let info: KernelsInfo = { name: 'wasm', reason: 'not loaded' };
let loaded: Addon | null = null;

/** The addon as loaded here (tests call its portable copy too), or null with the reason in kernelsInfo(). */
export function kernelsAddon(): Addon | null {
  return loaded;
}

/** The addon's kernels as the core takes them. */
function bound(addon: Addon): NativeKernels {
  return {
    name: info.name,
    noise: addon.noise,
    ramp: addon.ramp,
    multiply: addon.multiply,
    convert: addon.convert,
    over: addon.over,
    erase: addon.erase,
    convY: addon.convY,
    convX: addon.convX,
    dabs: addon.dabs,
    lay: addon.lay,
  };
}

function load(): void {
  if (process.env.TILEGRAPH_NATIVE === '0') {
    info = { name: 'wasm', reason: 'TILEGRAPH_NATIVE=0' };
    return;
  }
  try {
    loaded = createRequire(import.meta.url)(KERNELS_ADDON) as Addon;
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    info = {
      name: 'wasm',
      reason:
        err.code === 'MODULE_NOT_FOUND'
          ? 'the kernels addon is not built (npm run build needs a C compiler)'
          : `the kernels addon did not load: ${err.message.split('\n')[0]}`,
    };
    return;
  }
  if (loaded.simd !== 'avx512') {
    info = { name: 'wasm', reason: 'the CPU has no AVX-512 (the WebAssembly kernels are faster there)' };
    return;
  }
  info = { name: `native (${loaded.simd})` };
  bindNativeKernels(bound(loaded));
}

load();

/** Which kernels this thread runs (every thread loads the same file). */
export function kernelsInfo(): KernelsInfo {
  return info;
}

/** Tests: the core's WebAssembly kernels in this thread (false), or the addon's again where it is bound (true). */
export function setNativeKernels(on: boolean): void {
  bindNativeKernels(on && loaded?.simd === 'avx512' ? bound(loaded) : null);
}
