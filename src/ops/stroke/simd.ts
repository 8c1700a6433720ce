// stroke's round dabs in WebAssembly (stroke.wat; cpu.ts `drawDabsReference` is the reference):
// the same f64 arithmetic in the same order with Float32 stores, so the output is bit for bit the
// reference's. What it saves is the per-dab and per-pixel overhead of the loop in JavaScript: the
// jittered strokes of the gallery lay 30,000-45,000 dabs of 1-2 px per 256 px tile. The same
// module lays jittered dabs (`lay`, via dabLayer: plan.ts DabLayout.push's hashes and arithmetic,
// bit for bit). Where WebAssembly is missing, `drawDabsWasm` returns false, dabLayer null, and the
// TypeScript kernels run.
import { arenaAlloc, arenaFree, inArena } from '../../util/wasm-arena.js';
import { wasmKernels } from '../../util/wasm-kernels.js';
import { type DabsDrawArgs, nativeKernels } from '../../util/native-kernels.js';
import type { Dabs } from './plan.js';

interface Exports {
  draw(...a: DabsDrawArgs): void;
  setup(
    x0: number,
    y0: number,
    W: number,
    H: number,
    reachMax: number,
    opacity: number,
    sizeJitter: number,
    opacityJitter: number,
    scatter: number,
    widthMax: number,
    seed: number,
  ): void;
  lay(
    at: number,
    ax: number,
    ay: number,
    ux: number,
    uy: number,
    sA: number,
    k: number,
    kEnd: number,
    end: number,
    shift: number,
    sp: number,
    baseW: number,
    fkey: number,
    quad: number,
  ): number;
}

/** A stroke node's settings for laying its dabs in WebAssembly (plan.ts DabLayout's fields). */
export interface LaySettings {
  x0: number;
  y0: number;
  W: number;
  H: number;
  reachMax: number;
  opacity: number;
  sizeJitter: number;
  opacityJitter: number;
  scatter: number;
  widthMax: number;
  seed: number;
}

/** Most lattice dabs one lay call considers (its output is 16 bytes a dab). */
export const LAY_CHUNK = 65536;

/** The settings the lay kernel holds now (set by its setup). */
let laySettings: LaySettings | null = null;

/** The lay kernel bound to one node's settings (dabLayer). */
export interface DabLayer {
  /**
   * Lays the lattice dabs kFirst, kFirst + 1, ... (see layPiece) after the `at` dabs laid so far,
   * as f32 [cx, cy, r, m] from float `at * 4` of `room`'s view; returns how many (at most LAY_CHUNK).
   * `quad` (1 or 0): every dab's 1/8 px cell of this piece fits in an int32 (four dabs a step).
   */
  lay(...a: Parameters<Exports['lay']>): number;
  /** Memory for `dabs` dabs from 0 (what was laid stays); the view over it all, stale after a later room call. */
  room(dabs: number): Float32Array;
}

/**
 * The lay kernel for a node with settings `s` (null without WebAssembly). The dabs of one
 * strokeDabs call accumulate in the kernel's memory (no copy per piece); strokeDabs copies them
 * out before anything else runs the module.
 */
export function dabLayer(s: LaySettings): DabLayer | null {
  const k = kernels();
  if (!k) return null;
  let view = k.f32(0, 0);
  /** Memory for `dabs` dabs from 0 (what was laid stays). */
  const room = (dabs: number): Float32Array => {
    k.reserve(dabs * 16);
    if (view.byteLength === 0 || view.length < dabs * 4) view = new Float32Array(k.f32(0, 0).buffer);
    return view;
  };
  const native = nativeKernels()?.lay;
  if (native) {
    // The host's native lay (the Node host's AVX-512 addon: eight dabs a step, the same bits) on
    // the same memory: the piece's arguments, then the node's settings, in one array.
    const args = Float64Array.of(
      ...new Array<number>(13).fill(0),
      s.x0,
      s.y0,
      s.W,
      s.H,
      s.reachMax,
      s.opacity,
      s.sizeJitter,
      s.opacityJitter,
      s.scatter,
      s.widthMax,
      s.seed,
    );
    let bytes = new Uint8Array(0);
    return {
      // Written one by one: a rest array copied in with set cost ~0.15 ms a hand-drawn tile more.
      lay: (at, ax, ay, ux, uy, sA, kFirst, kEnd, end, shift, sp, baseW, fkey, quad) => {
        args[0] = ax;
        args[1] = ay;
        args[2] = ux;
        args[3] = uy;
        args[4] = sA;
        args[5] = kFirst;
        args[6] = Math.min(kEnd, kFirst + LAY_CHUNK - 1);
        args[7] = end;
        args[8] = shift;
        args[9] = sp;
        args[10] = baseW;
        args[11] = fkey;
        args[12] = quad;
        const buf = k.f32(0, 0).buffer as ArrayBuffer;
        if (bytes.buffer !== buf) bytes = new Uint8Array(buf);
        return native(bytes, at * 16, args, 0);
      },
      room,
    };
  }
  return {
    lay: (at, ax, ay, ux, uy, sA, kFirst, kEnd, end, shift, sp, baseW, fkey, quad) => {
      // The kernel's settings, unless they are this node's already (only setup writes them).
      if (laySettings !== s) {
        k.fn.setup(s.x0, s.y0, s.W, s.H, s.reachMax, s.opacity, s.sizeJitter, s.opacityJitter, s.scatter, s.widthMax, s.seed);
        laySettings = s;
      }
      return k.fn.lay(at * 16, ax, ay, ux, uy, sA, kFirst, Math.min(kEnd, kFirst + LAY_CHUNK - 1), end, shift, sp, baseW, fkey, quad);
    },
    room,
  };
}

const kernels = wasmKernels<Exports>('stroke');

/**
 * The largest canvas whose dabs the kernel draws: its memory (~32 bytes a canvas pixel: the
 * raster, the layer's planes) never shrinks, so a larger canvas (up to LIMITS.maxCanvasPixels,
 * ~540 MB kept for the process's life) takes drawDabsReference's loop, which gives the same bits.
 */
export const DABS_WASM_MAX_PIXELS = 1 << 21;

/**
 * Draws round-tipped dabs `d` (source-over, group by group) onto `out` (premultiplied RGBA, W x H),
 * as drawDabsReference does. False (nothing drawn) for image tips or without WebAssembly. `fresh`:
 * `out` is to be drawn from transparent (its contents are not read; it is zeroed first).
 */
export function drawDabsWasm(d: Dabs, W: number, H: number, out: Float32Array, fresh: boolean): boolean {
  if (!d.round || W * H > DABS_WASM_MAX_PIXELS) return false;
  const k = kernels();
  if (!k) return false;
  if (inArena(out) && drawOnArena(k.onArena(), d, W, H, out, fresh)) return true;
  const n = W * H;
  const lay = layout(d, n, 0, true);
  k.reserve(lay.top);
  const outView = k.f32(lay.out, n * 4);
  if (fresh) outView.fill(0);
  else outView.set(out.subarray(0, n * 4));
  const buf = k.f32(0, 0).buffer as ArrayBuffer;
  fill(buf, d, n, lay);
  draw(
    k.fn,
    buf,
    W,
    H,
    d.count,
    d.runCount,
    d.groups,
    lay.geom,
    lay.group,
    lay.paints,
    lay.runs,
    lay.runGroup,
    lay.out,
    lay.layer,
    lay.cms,
    lay.touched,
    d.hardness,
    d.aa,
  );
  out.set(k.f32(lay.out, n * 4));
  return true;
}

/**
 * The kernel's draw on the memory `mem` (its instance's): the host's native dabs where one is bound
 * (the Node host's AVX-512 addon: eight dabs' profiles at a time, the same bits), else `fn`'s.
 */
function draw(fn: Exports, mem: ArrayBuffer, ...a: Parameters<Exports['draw']>): void {
  const dabs = nativeKernels()?.dabs;
  if (dabs) dabs(new Uint8Array(mem), ...a, 0);
  else fn.draw(...a);
}

/** Byte offsets of a draw call's arrays from `base` (the output plane first where `withOut`), and the end. */
interface DrawLayout {
  out: number;
  layer: number;
  cms: number;
  touched: number;
  geom: number;
  group: number;
  paints: number;
  runs: number;
  runGroup: number;
  top: number;
}

function layout(d: Dabs, n: number, base: number, withOut: boolean): DrawLayout {
  let top = base;
  const at = (bytes: number) => {
    const a = top;
    top += (bytes + 15) & ~15;
    return a;
  };
  const out = withOut ? at(n * 16) : -1;
  // The layer's alpha plane (stroke.wat), its strength plane and the touched list, each with 32
  // bytes to spare: the dab kernel's four-pixel steps read and write back pixels past the end.
  const layer = at(n * 4 + 32);
  const cms = at(n * 8 + 32);
  const touched = at(n * 4 + 32);
  const geom = at(d.count * 16);
  const group = at(d.count * 4);
  const paints = at(d.paints.length * 4);
  const runs = at(d.runCount * 72);
  const runGroup = at(d.runCount * 4);
  return { out, layer, cms, touched, geom, group, paints, runs, runGroup, top };
}

/** The layer's alpha plane at -1 (no group's pixel yet) and the dabs' arrays, into `buf` at `lay`'s offsets. */
function fill(buf: ArrayBuffer, d: Dabs, n: number, lay: DrawLayout): void {
  new Float32Array(buf, lay.layer, n).fill(-1);
  new Float32Array(buf, lay.geom, d.count * 4).set(d.geom.subarray(0, d.count * 4));
  new Uint32Array(buf, lay.group, d.count).set(d.group.subarray(0, d.count));
  new Float32Array(buf, lay.paints, d.paints.length).set(d.paints);
  if (d.runCount > 0) {
    new Float64Array(buf, lay.runs, d.runCount * 9).set(d.runs.subarray(0, d.runCount * 9));
    new Uint32Array(buf, lay.runGroup, d.runCount).set(d.runGroup.subarray(0, d.runCount));
  }
}

/**
 * drawDabsWasm where `out` lies in the canvas arena (src/util/wasm-arena.ts): the kernel's
 * instance on the arena composites onto `out` where it lies (no copy in or out), its planes and
 * the dabs' arrays in a block of the arena for the call (the same arrays, reads and arithmetic as
 * the copying path). False where the arena has no room for the block.
 */
function drawOnArena(fn: Exports | null, d: Dabs, W: number, H: number, out: Float32Array, fresh: boolean): boolean {
  if (!fn) return false;
  const n = W * H;
  const size = layout(d, n, 0, false).top;
  const block = arenaAlloc(size / 4, false);
  if (!block) return false;
  try {
    const lay = layout(d, n, block.byteOffset, false);
    if (fresh) out.fill(0, 0, n * 4);
    fill(block.buffer as ArrayBuffer, d, n, lay);
    draw(
      fn,
      block.buffer as ArrayBuffer,
      W,
      H,
      d.count,
      d.runCount,
      d.groups,
      lay.geom,
      lay.group,
      lay.paints,
      lay.runs,
      lay.runGroup,
      out.byteOffset,
      lay.layer,
      lay.cms,
      lay.touched,
      d.hardness,
      d.aa,
    );
    return true;
  } finally {
    arenaFree(block);
  }
}
