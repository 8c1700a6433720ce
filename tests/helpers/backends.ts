// Backends the test suite loops over: one test body, every available backend (luma.gl style).
import { CpuBackend, type Backend } from '../../src/index.js';
import { gpuBackendForTests } from './gpu.js';
import type { Handle, Session } from '../../src/backends/backend.js';
import type { OpContext, OpDef } from '../../src/ops/types.js';

export interface NamedBackend {
  name: 'cpu' | 'gpu';
  backend: Backend;
}

/** The CPU backend always; the GPU backend is added by tests/helpers/gpu.ts when an adapter exists. */
export async function availableBackends(): Promise<NamedBackend[]> {
  const out: NamedBackend[] = [{ name: 'cpu', backend: new CpuBackend() }];
  const gpu = await gpuBackendForTests();
  if (gpu) out.push({ name: 'gpu', backend: gpu });
  return out;
}

/** A backend whose sessions call `before` ahead of each op and `after` with its result (spies, fault injection). */
export function hookedBackend(
  inner: Backend,
  hooks: { before?(op: OpDef, ctx: OpContext): void; after?(op: OpDef, ctx: OpContext, value: Handle): void },
): Backend {
  return {
    name: inner.name,
    isSupported: () => inner.isSupported(),
    recover: (e) => inner.recover(e),
    begin(): Session {
      const s = inner.begin();
      return {
        get stats() {
          return s.stats;
        },
        paintTargets: s.paintTargets,
        async run(op, ctx) {
          hooks.before?.(op, ctx);
          const v = await s.run(op, ctx);
          hooks.after?.(op, ctx, v);
          return v;
        },
        crop: (v, from, to) => s.crop(v, from, to),
        release: (v) => s.release(v),
        read: (v) => s.read(v),
        end: () => s.end(),
      };
    },
  };
}
