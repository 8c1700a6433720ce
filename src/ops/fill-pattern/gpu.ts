// fill-pattern on the GPU: the union coverage drawn as fill-solid draws it (every group
// opaque white, so alpha = the CPU's coverage union), then one pass multiplying the pattern:
// a sprite sampled at the world-anchored columns and phase of patternPhase (fill-pattern.wgsl) or a raster
// (fill-pattern-raster.wgsl).
import { ShapeTriangles } from '../../backends/gpu/triangles.js';
import { drawShapes } from '../../backends/gpu/area.js';
import type { GpuOp } from '../../backends/gpu/encoder.js';
import { clamp01 } from '../../expr/paint.js';
import { isNodeRef, spriteInput } from '../stamp/sprite.js';
import { addPolygonRings } from '../fill-solid/plan.js';
import { patternPhase, polygonGroups } from './index.js';

export const gpu: GpuOp = {
  async encode(g, ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const shapes = new ShapeTriangles(W, H);
    for (const grp of polygonGroups(ctx)) {
      shapes.addGroup(grp, addPolygonRings, -x0, -y0);
      shapes.endShape(1, 1, 1, 1);
    }
    const cov = drawShapes(g, shapes, ctx.bool('antialias', true));
    const out = g.output('raster', W, H);
    const op = clamp01(ctx.num('opacity', 1));
    const raster = isNodeRef(ctx.node.pattern) && ctx.handle('pattern').kind === 'raster';
    if (raster) {
      const pat = g.input(ctx, 'pattern');
      const u = g.uniforms('fill-pattern-raster', { size: [W, H], cov, pat, opacity: op });
      g.dispatch2d('fill-pattern-raster', { u, cov_tex: g.view(cov), pat_tex: g.view(pat), dst: g.view(out) }, W, H);
      return out;
    }
    const s = await spriteInput(ctx, 'pattern');
    if (s.kind !== 'sprite') return undefined;
    const ph = patternPhase(ctx, s);
    const u = g.uniforms('fill-pattern', { size: [W, H], cov, v0: ph.v0, inv: ph.inv, opacity: op, sw: s.width, sh: s.height });
    g.dispatch2d('fill-pattern', { u, cov_tex: g.view(cov), sprite: g.storage(s.data), cols: g.storage(ph.cols), dst: g.view(out) }, W, H);
    return out;
  },
};
