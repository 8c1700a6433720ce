import { groupLike } from '../../geometry/groups.js';
import { num, numRef } from '../../style/fields.js';
import type { FeatureGroup, Features } from '../../types.js';
import type { OpContext } from '../types.js';
import { featuresOp } from '../declare.js';

/**
 * Moves every feature by (dx, dy) pixels (MapLibre's `*-translate`): x east, y south. Clip
 * flags travel with the geometry. Whole features and tile pieces are not moved, so measuring ops
 * downstream (centroid, dash on GeoJSON) work on the moved groups as delivered.
 */
export const translate = featuresOp({
  name: 'translate',
  description: 'moves every feature by (dx, dy) pixels: x east, y south',
  fields: {
    dx: numRef({ default: 0, unit: 'px', description: 'pixels east (negative: west)' }),
    dy: numRef({ default: 0, unit: 'px', description: 'pixels south (negative: north)' }),
    'dx-max': num({ min: 0, unit: 'px', description: 'bound of |dx| when it is an @node port; larger values clamp to it' }),
    'dy-max': num({ min: 0, unit: 'px', description: 'bound of |dy| when it is an @node port; larger values clamp to it' }),
  },
  paddingFields: ['dx', 'dy'],
  // The input is sampled this much farther out, so what moves into the canvas is there.
  pad: (bound) => Math.ceil(Math.max(Math.abs(bound('dx') ?? 0), Math.abs(bound('dy') ?? 0))),
  cpu(ctx): Features {
    const input = ctx.input<'features'>('features');
    const dx = clampAbs(ctx.num('dx', 0), ctx.bound('dx'));
    const dy = clampAbs(ctx.num('dy', 0), ctx.bound('dy'));
    if (dx === 0 && dy === 0) return { kind: 'features', groups: input.groups };
    return { kind: 'features', groups: input.groups.map((g) => moved(g, dx, dy)) };
  },
});

function clampAbs(v: number, bound: number | undefined): number {
  const b = bound === undefined || !Number.isFinite(bound) ? Infinity : Math.abs(bound);
  return Math.max(-b, Math.min(b, v));
}

function shift(a: Float64Array, dx: number, dy: number): Float64Array {
  const out = new Float64Array(a.length);
  for (let i = 0; i + 1 < a.length; i += 2) {
    out[i] = a[i]! + dx;
    out[i + 1] = a[i + 1]! + dy;
  }
  return out;
}

function moved(g: FeatureGroup, dx: number, dy: number): FeatureGroup {
  return groupLike(g, {
    polygons: g.polygons.map((p) => p.map((r) => shift(r, dx, dy))),
    lines: g.lines.map((l) => shift(l, dx, dy)),
    points: shift(g.points, dx, dy),
    cutEnds: g.cutEnds,
    polygonCuts: g.polygonCuts,
  });
}

export type { OpContext };
