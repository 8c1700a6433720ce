// The backend contract: the CPU backend (reference) and the WebGPU backend implement it.
import type { OpContext, OpDef } from '../ops/types.js';
import type { Canvas, Raster, Value } from '../types.js';

/** Per-render counters (the GPU backend fills passes/submits/readbacks). */
export interface RenderStats {
  nodes: number;
  passes: number;
  submits: number;
  readbacks: number;
  bytesReadBack: number;
}

export interface Backend {
  readonly name: 'cpu' | 'gpu';
  /** Run one op. Inputs reached through ctx.input() are values of this backend. */
  run(op: OpDef, ctx: OpContext): Promise<Value>;
  /** Crop (or view) a canvas-sized value to a smaller canvas inside it. */
  crop(value: Value, from: Canvas, to: Canvas): Value;
  /** Bring the output raster to the CPU (one readback per render on the GPU). */
  read(value: Value): Promise<Raster>;
  /**
   * Start and end of one render (the GPU backend encodes between them). A backend may return a
   * per-render session from begin(): the render then runs, crops, reads and ends on it, so
   * concurrent renders sharing one backend keep separate state.
   */
  begin?(stats: RenderStats): Backend | void;
  end?(): void;
  /** Paint ops may draw onto `ctx.target` (see OpDef.paintsOnto): fused normal blends run as one paint. */
  readonly paintTargets?: boolean;
  /** A value no consumer will read again in this render: its storage may be reused. */
  release?(value: Value): void;
  /** After a failed render: resolve true to have it retried once (a lost GPU device was replaced). */
  recover?(error: unknown): Promise<boolean>;
}
