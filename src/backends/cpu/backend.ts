// The CPU backend: pure TypeScript, the reference for every op. Each render gets a CpuSession
// (its own counters); the backend itself holds no per-render state.
import { emptyStats, isDeviceValue, type Backend, type Handle, type RenderStats, type Session } from '../backend.js';
import type { OpContext, OpDef } from '../../ops/types.js';
import { RenderError } from '../../errors.js';
import type { Canvas, Raster, Value } from '../../types.js';
import { cropValue } from './raster.js';
import { release } from './pool.js';

/** A CPU session's handles are always CPU values. */
function cpuValue(h: Handle): Value {
  if (isDeviceValue(h)) throw new RenderError('a device value reached the CPU backend');
  return h;
}

export class CpuSession implements Session {
  readonly paintTargets: boolean = true;
  readonly stats: RenderStats = emptyStats();

  async run(op: OpDef, ctx: OpContext): Promise<Value> {
    if (!op.cpu) throw new RenderError(`op '${op.name}' has no CPU kernel`);
    this.stats.passes++;
    return op.cpu(ctx);
  }

  crop(value: Handle, from: Canvas, to: Canvas): Value {
    return cropValue(cpuValue(value), from, to);
  }

  release(value: Handle): void {
    const v = cpuValue(value);
    if (v.kind === 'raster' || v.kind === 'scalar-field') release(v.data);
  }

  async read(value: Handle): Promise<Raster> {
    const v = cpuValue(value);
    if (v.kind !== 'raster') throw new RenderError(`the output produced ${v.kind}, not a raster`);
    return v;
  }

  end(): void {}
}

export class CpuBackend implements Backend {
  readonly name = 'cpu' as const;

  static isSupported(): boolean {
    return true;
  }

  isSupported(): boolean {
    return true;
  }

  begin(): CpuSession {
    return new CpuSession();
  }

  async recover(): Promise<boolean> {
    return false;
  }
}
