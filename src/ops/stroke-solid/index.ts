import { color, expr, nodeRef, numRef, oneOfEnum, num } from '../../style/fields.js';
import { Compositor, acquireRasterizer, releaseRasterizer, type RingSet } from '../../backends/cpu/rasterize.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { Stroker, strokeReach, type Cap, type Join } from '../../geometry/stroke.js';
import type { Features, RGBA } from '../../types.js';
import { BLACK, DEFAULT_SIZE_BOUND, clamp01, explicitMax, groupColor, groupNumber, sizeBound } from '../../expr/paint.js';
import type { NodeSpec, OpContext, OpDef } from '../types.js';
import { gpu } from './gpu.js';

function styleOf(node: NodeSpec): { join: Join; cap: Cap; miterLimit: number } {
  return {
    join: (node.join as Join | undefined) ?? 'miter',
    cap: (node.cap as Cap | undefined) ?? 'butt',
    miterLimit: typeof node['miter-limit'] === 'number' ? node['miter-limit'] : 2,
  };
}

/** Lines and polygon rings stroked at a constant (or per-feature) width, anti-aliased. */
export const strokeSolid: OpDef = {
  name: 'stroke-solid',
  description: 'strokes lines and polygon rings, anti-aliased',
  output: 'raster',
  inputs: { features: ['features'] },
  fields: {
    features: nodeRef(),
    width: numRef({ min: 0, default: 1, description: 'line width in pixels' }),
    'width-max': num({ min: 0, description: 'bound of width (an @node port) or width-expr; larger values clamp to it' }),
    color: color('stroke colour (default #000000)'),
    opacity: numRef({ min: 0, max: 1, default: 1 }),
    join: oneOfEnum(['miter', 'round', 'bevel'], 'miter'),
    cap: oneOfEnum(['butt', 'round', 'square'], 'butt'),
    'miter-limit': num({ min: 1, default: 2 }),
    offset: numRef({ default: 0, description: 'pixels to the right of the line direction' }),
    'width-expr': expr('number', 'per-feature width'),
    'color-expr': expr('color', 'per-feature colour'),
    'opacity-expr': expr('number', 'per-feature opacity'),
  },
  required: ['features'],
  pad(bound, _field, node) {
    const { join, cap, miterLimit } = styleOf(node);
    const width = sizeBound(bound, node, 'width');
    const offset = node.offset === undefined ? 0 : (bound('offset') ?? DEFAULT_SIZE_BOUND);
    return Math.ceil(strokeReach(width, join, cap, miterLimit, offset));
  },
  paintsOnto: true,
  gpu,
  cpu(ctx) {
    const { width: W, height: H, x0, y0 } = ctx.canvas;
    const out = ctx.target ?? newRaster(W, H);
    const rast = acquireRasterizer(W, H, true);
    const comp = new Compositor(out.data, W);
    strokeOutlines(ctx, (rings, paint) => {
      comp.setColor(paint);
      rast.addRings(rings, -x0, -y0);
      rast.sweep(comp.span);
    });
    releaseRasterizer(rast);
    return out;
  },
};

/**
 * The outline rings of every group that draws, with its premultiplied paint (opacity applied):
 * one source of truth for both backends. Ring edges made by clipping (polygonCuts) and line ends
 * made by clipping (cutEnds) are not stroked or capped.
 */
export function strokeOutlines(ctx: OpContext, visit: (rings: RingSet, paint: RGBA) => void): void {
  const features = ctx.input<'features'>('features') as Features;
  const { join, cap, miterLimit } = styleOf(ctx.node);
  const wmax = explicitMax(ctx.node, 'width');
  const width = groupNumber(ctx, 'width-expr', ctx.num('width', 1));
  const paint = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const offset = ctx.num('offset', 0);
  const stroker = new Stroker();
  const rings = stroker.out;
  for (const g of features.groups) {
    if (!g.lines.length && !g.polygons.length) continue;
    const w = Math.min(width(g), wmax);
    if (!(w > 0)) continue;
    const c = paint(g);
    const a = clamp01(c[3] * clamp01(opacity(g)));
    if (!(a > 0)) continue;
    rings.clear();
    stroker.setStyle({ width: w, join, cap, miterLimit, offset });
    for (let i = 0; i < g.lines.length; i++) {
      const cut = g.cutEnds?.[i] ?? 0;
      stroker.line(g.lines[i]!, (cut & 1) === 0, (cut & 2) === 0);
    }
    for (let i = 0; i < g.polygons.length; i++) {
      const poly = g.polygons[i]!;
      const cuts = g.polygonCuts?.[i];
      for (let k = 0; k < poly.length; k++) stroker.ring(poly[k]!, cuts?.[k]);
    }
    visit(rings, [c[0], c[1], c[2], a]);
  }
}
