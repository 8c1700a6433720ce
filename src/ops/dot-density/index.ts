import { exprFeature } from '../features/index.js';
import { features, groupLike } from '../../geometry/groups.js';
import { featureKey, polygonDots, worldLattice, type DotLattice } from '../../geometry/lattice.js';
import { CLIP_BUFFER } from '../../sources/sample.js';
import { RenderError } from '../../errors.js';
import { expr, int, num, numRef } from '../../style/fields.js';
import type { FeatureGroup, Features } from '../../types.js';
import { featuresOp } from '../declare.js';

/** Lattice cells one node may visit, at most (spacing-px has no lower bound of its own). */
const MAX_CELLS = 1 << 22;

/**
 * Points scattered inside polygons at a per-feature areal density (units per km² / dot-value =
 * dots per km²), at most one per lattice cell of `spacing-px` world pixels (snapped per zoom to a
 * whole number of cells around the world). Every draw hashes the cell's world coordinates (the
 * column modulo the world), the seed and the feature, so tiles agree on every dot, across the
 * antimeridian too.
 */
export const dotDensity = featuresOp({
  name: 'dot-density',
  description: 'dots scattered inside polygons at a per-feature areal density, at most one per lattice cell',
  fields: {
    density: numRef({ min: 0, default: 0, unit: 'per-km2', description: 'units per km²' }),
    'density-expr': expr('number', 'units per km², per feature; overrides density', 'per-km2'),
    'dot-value': numRef({ exclusiveMin: 0, default: 1, description: 'units per dot' }),
    jitter: num({ min: 0, max: 1, default: 1, description: '0: dots at cell centres; 1: anywhere in their cell' }),
    seed: int({ min: 0, default: 0 }),
    'spacing-px': numRef({ exclusiveMin: 0, default: 3, unit: 'px', description: 'lattice cell size, pixels' }),
  },
  cpu(ctx): Features {
    const { canvas, zoom } = ctx;
    const spacing = ctx.num('spacing-px');
    const dotValue = ctx.num('dot-value');
    if (!(spacing > 0)) throw new RenderError(`dot-density: spacing-px must be > 0 but is ${spacing}`);
    if (!(dotValue > 0)) throw new RenderError(`dot-density: dot-value must be > 0 but is ${dotValue}`);
    const worldSize = canvas.tileSize * 2 ** canvas.z;
    const L: DotLattice = {
      ...worldLattice(spacing, worldSize),
      jitter: ctx.num('jitter'),
      seed: ctx.num('seed', 0),
      worldSize,
      maxCells: MAX_CELLS,
    };
    const clip: [number, number, number, number] = [
      canvas.x0 - CLIP_BUFFER,
      canvas.y0 - CLIP_BUFFER,
      canvas.x0 + canvas.width + CLIP_BUFFER,
      canvas.y0 + canvas.height + CLIP_BUFFER,
    ];
    const densityExpr = ctx.expr('density-expr');
    const fixed = ctx.num('density');
    let cells = 0;
    const out: FeatureGroup[] = [];
    for (const g of ctx.input<'features'>('features').groups) {
      if (!g.polygons.length) continue;
      let density = fixed;
      if (densityExpr) {
        const v = densityExpr.evaluate(zoom, exprFeature(g));
        density = typeof v === 'number' && Number.isFinite(v) ? v : 0;
      }
      const perKm2 = density / dotValue;
      if (!(perKm2 > 0)) continue;
      const key = featureKey(g.id, g.properties);
      const pts: number[] = [];
      for (const poly of g.polygons) {
        cells += polygonDots(poly, perKm2, L, key, clip, pts);
        if (cells > MAX_CELLS) throw new RenderError(`dot-density: more than ${MAX_CELLS} lattice cells in one canvas; make spacing-px larger`);
      }
      if (pts.length) out.push(groupLike(g, { points: Float64Array.from(pts) }));
    }
    return features(out);
  },
});
