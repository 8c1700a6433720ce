// The CPU backend: pure TypeScript, the reference for every op.
import type { Backend, RenderStats } from '../backend.js';
import type { OpContext, OpDef } from '../../ops/types.js';
import { RenderError } from '../../errors.js';
import type { Canvas, Raster, Value } from '../../types.js';
import { cropValue } from './raster.js';
import { release } from './pool.js';

export class CpuBackend implements Backend {
  readonly name = 'cpu' as const;
  readonly paintTargets = true;
  private stats?: RenderStats;

  static isSupported(): boolean {
    return true;
  }

  begin(stats: RenderStats): void {
    this.stats = stats;
  }

  async run(op: OpDef, ctx: OpContext): Promise<Value> {
    if (!op.cpu) throw new RenderError(`op '${op.name}' has no CPU kernel`);
    if (this.stats) this.stats.passes++;
    return op.cpu(ctx);
  }

  crop(value: Value, from: Canvas, to: Canvas): Value {
    return cropValue(value, from, to);
  }

  release(value: Value): void {
    if (value.kind === 'raster' || value.kind === 'scalar-field') release(value.data);
  }

  async read(value: Value): Promise<Raster> {
    if (value.kind !== 'raster') throw new RenderError(`the output produced ${value.kind}, not a raster`);
    return value;
  }
}
