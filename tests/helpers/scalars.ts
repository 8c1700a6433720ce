// Reads the values of non-raster nodes (scalars, features, fields) through a render: the style's
// output is a raster, so the node under test is captured as it runs.
import { CpuBackend, Renderer, type RendererOptions } from '../../src/index.js';
import { isDeviceValue } from '../../src/backends/backend.js';
import type { Value, Window } from '../../src/types.js';
import { hookedBackend } from './backends.js';

/** Renders `style` at `window` and returns the value each node in `ids` produced. */
export async function capture(
  style: object,
  ids: string[],
  window: Window,
  params: Record<string, string> = {},
  options: RendererOptions = {},
): Promise<Map<string, Value>> {
  const out = new Map<string, Value>();
  const backend = hookedBackend(new CpuBackend(), {
    after(_op, ctx, v) {
      if (ids.includes(ctx.id) && !isDeviceValue(v)) out.set(ctx.id, v);
    },
  });
  const r = Renderer.create(style, options);
  await r.renderWindow(window, r.params(params), { backend });
  return out;
}

/** A style whose output reads scalar node `id` (as a blend opacity), so the node runs. */
export function readsScalar(nodes: Record<string, object>, id: string, extra: object = {}): object {
  return {
    output: 'out',
    ...extra,
    nodes: {
      ...nodes,
      base: { op: 'solid', color: '#000000' },
      top: { op: 'solid', color: '#ffffff' },
      out: { op: 'blend', base: '@base', over: '@top', opacity: `@${id}` },
    },
  };
}

/** A small window at zoom z. */
export const win = (z: number, size = 4): Window => ({ z, x0: 0, y0: 0, width: size, height: size, tileSize: 256 });

/** A color-ramp node drawing the scalar field `field` ('@id') through two stops: the `out` of a style that tests a field. */
export function rampOut(field: string, [v0, c0]: [number, string], [v1, c1]: [number, string]) {
  return {
    op: 'color-ramp',
    field,
    stops: [
      { value: v0, color: c0 },
      { value: v1, color: c1 },
    ],
  };
}
