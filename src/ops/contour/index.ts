import { Contourer, intervalLevels, normalizeLevels } from '../../geometry/contour.js';
import { nodeRef, numParam, numRef } from '../../style/fields.js';
import type { FeatureGroup, Features } from '../../types.js';
import type { OpContext, OpDef } from '../types.js';

const FIELD_PAD = 1;

/** Isolines of a scalar field by marching squares. */
export const contour: OpDef = {
  name: 'contour',
  description: 'isolines by marching squares, one feature group per level',
  output: 'features',
  inputs: { field: ['scalar-field'] },
  fields: {
    field: nodeRef(),
    interval: numRef({ exclusiveMin: 0 }),
    base: numRef({ default: 0 }),
    levels: { type: 'array', minItems: 1, items: numParam(), 'x-expect': 'an array of at least one number or $param' },
    min: numRef(),
    max: numRef(),
  },
  required: ['field'],
  // One extra pixel of field: isolines end at the outermost sample centres, so this makes them
  // reach half a pixel past this node's canvas, and a consumer's stroke padding fully covers a tile.
  pad: () => FIELD_PAD,
  check: (node) =>
    node.interval === undefined && node.levels === undefined ? [{ field: 'interval', message: "'interval' is required unless 'levels' is given" }] : [],
  cpu(ctx): Features {
    const field = ctx.input<'scalar-field'>('field');
    const { canvas } = ctx;
    // The field's range comes from the contourer's own scan of the samples (fieldRange's values).
    const contourer = new Contourer(field.data, field.width, field.height, canvas.x0 - FIELD_PAD, canvas.y0 - FIELD_PAD);
    const [fmin, fmax] = contourer.range;
    const lo = Math.max(fmin, ctx.has('min') ? ctx.num('min') : -Infinity);
    const hi = Math.min(fmax, ctx.has('max') ? ctx.num('max') : Infinity);
    const levels = levelsOf(ctx, lo, hi);
    const groups: FeatureGroup[] = [];
    for (const level of levels) {
      const iso = contourer.isolines(level);
      // A level with no line in this canvas gives no group (nothing to draw, nothing to label).
      if (!iso.lines.length) continue;
      groups.push({ properties: { level }, polygons: [], lines: iso.lines, cutEnds: Uint8Array.from(iso.cutEnds), points: new Float64Array(0) });
    }
    return { kind: 'features', groups };
  },
};

/** The levels to trace in [lo, hi]: explicit `levels` (sorted, de-duplicated) or base + k * interval. */
function levelsOf(ctx: OpContext, lo: number, hi: number): number[] {
  const list = ctx.node.levels;
  if (Array.isArray(list)) {
    const values = list.map((v, i) => {
      const x = ctx.resolve(v);
      if (typeof x !== 'number') throw new Error(`levels/${i}: ${JSON.stringify(v)} is not a number`);
      return x;
    });
    return normalizeLevels(values).filter((v) => v >= lo && v <= hi);
  }
  const interval = ctx.num('interval');
  // The render loop turns these errors into a RenderError pointing at this node.
  if (!(interval > 0)) throw new Error(`'interval' must be > 0 but is ${interval}`);
  return intervalLevels(ctx.num('base'), interval, lo, hi);
}
