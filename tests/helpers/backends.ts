// Test backends: a wrapper that hooks every op a session runs (spies, fault injection).
import type { Backend } from '../../src/index.js';
import type { Handle, Session } from '../../src/backends/backend.js';
import type { OpContext, OpDef } from '../../src/ops/types.js';

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
