// The backend contract. A Backend is a session factory: every render begins its own Session,
// which runs the plan's ops, holds the values passed between them and reads the output back.
// Sessions share nothing per render, so concurrent renders on one backend keep their own state
// and their own counters. The CPU backend (reference) and the WebGPU backend implement it.
import type { OpContext, OpDef } from '../ops/types.js';
import type { Canvas, Raster, Value } from '../types.js';

/** Per-render counters, owned by the render's session. */
export interface RenderStats {
  /** Nodes run. */
  nodes: number;
  /** Nodes whose result came from the render's node cache instead (not counted in `nodes`). */
  cached: number;
  /** CPU kernels run plus GPU compute passes encoded. */
  passes: number;
  submits: number;
  readbacks: number;
  bytesReadBack: number;
  /** Inputs handed to the node that read them last, which wrote its output into them (OpContext.takeInput: CPU blends, and the bases fused paints draw on). */
  inPlace: number;
}

export const emptyStats = (): RenderStats => ({ nodes: 0, cached: 0, passes: 0, submits: 0, readbacks: 0, bytesReadBack: 0, inPlace: 0 });

/**
 * A raster or scalar field that lives on a device (a GPU texture view). Opaque to the render loop
 * and to CPU kernels: only its session can read it. `storage` identifies what it is a view of, so
 * the render loop can tell which handles share storage.
 */
export interface DeviceValue {
  readonly onDevice: true;
  readonly kind: 'raster' | 'scalar-field';
  readonly width: number;
  readonly height: number;
  readonly storage: object;
}

/** What a session passes between ops: a CPU value, or a device value of that session's backend. */
export type Handle = Value | DeviceValue;

export const isDeviceValue = (h: Handle): h is DeviceValue => (h as Partial<DeviceValue>).onDevice === true;

/** The storage behind a handle (a CPU array or a device texture), or undefined for values without one. */
export function storageOf(h: Handle): object | undefined {
  if (isDeviceValue(h)) return h.storage;
  return h.kind === 'raster' || h.kind === 'scalar-field' ? h.data : undefined;
}

export interface Session {
  readonly stats: RenderStats;
  /** Paint ops may draw onto `ctx.target` (OpDef.paintsOnto): fused normal blends run as one paint. */
  readonly paintTargets: boolean;
  /** Run one op. Inputs reached through the context are handles of this session. */
  run(op: OpDef, ctx: OpContext): Promise<Handle>;
  /** Crop (or view) a canvas-sized handle to a smaller canvas inside it. */
  crop(value: Handle, from: Canvas, to: Canvas): Handle;
  /** Bring the output raster to the CPU (one readback per render on the GPU). */
  read(value: Handle): Promise<Raster>;
  /** A handle no consumer will read again in this render: its storage may be reused. */
  release(value: Handle): void;
  /** The render is over (done or failed): give back everything it holds. */
  end(): void;
}

export interface Backend {
  readonly name: 'cpu' | 'gpu';
  /** Whether this backend can render here (the GPU backend: its device is alive). */
  isSupported(): boolean;
  /** A new session for one render. */
  begin(): Session;
  /** After a failed render: resolves true to have it retried once (a lost GPU device was replaced). */
  recover(error: unknown): Promise<boolean>;
}
