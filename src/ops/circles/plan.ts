import type { FeatureGroup, Features } from '../../types.js';
import { CUT_END, CUT_START } from '../../geometry/clip.js';
import { BLACK, clamp01, explicitMax, groupColor, groupNumber } from '../../expr/paint.js';
import type { OpContext } from '../types.js';

export interface CirclePaint {
  points: Float64Array;
  /** Fill radius and stroke width, clamped to their bounds. */
  r: number;
  sw: number;
  /** Premultiplied fill and stroke paint (opacity applied). */
  fill: [number, number, number, number];
  stroke: [number, number, number, number];
  /**
   * Width of MapLibre's smoothstep edge as a fraction of the outer radius (max(blur, 1 / R) in
   * the `maplibre` profile); 0: exact area coverage.
   */
  aa: number;
}

/**
 * MapLibre's circle shader at distance d from the centre, for an outer radius R = r + sw: the
 * paint's weights [fill, stroke] (premultiplied paint times each; they add up to the coverage).
 * opacity_t = smoothstep(0, -aa, d/R - 1), color_t = smoothstep(-aa, 0, d/R - r/R) (0 without
 * a stroke), coverage = opacity_t, split (1 - color_t) : color_t.
 */
export function smoothWeights(d: number, r: number, sw: number, aa: number, out: Float64Array): void {
  const R = r + sw;
  const t = d / R;
  const o = smoothstep(0, -aa, t - 1);
  const ct = sw < 0.01 ? 0 : smoothstep(-aa, 0, t - r / R);
  out[0] = o * (1 - ct);
  out[1] = o * ct;
}

function smoothstep(e0: number, e1: number, x: number): number {
  const h = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return h * h * (3 - 2 * h);
}

/** Per-group paint of a circles node, for both backends; groups that draw nothing are left out. */
export function circlePaints(ctx: OpContext): CirclePaint[] {
  const features = ctx.input<'features'>('features') as Features;
  const rmax = explicitMax(ctx, 'radius');
  const swmax = explicitMax(ctx, 'stroke-width');
  const radius = groupNumber(ctx, 'radius-expr', ctx.num('radius', 5));
  const strokeWidth = groupNumber(ctx, 'stroke-width-expr', ctx.num('stroke-width', 0));
  const fillColor = groupColor(ctx, 'color-expr', ctx.color('color', BLACK));
  const strokeColor = groupColor(ctx, 'stroke-color-expr', ctx.color('stroke-color', BLACK));
  const opacity = groupNumber(ctx, 'opacity-expr', ctx.num('opacity', 1));
  const fillOpacity = groupNumber(ctx, 'fill-opacity-expr', ctx.num('fill-opacity', 1));
  const strokeOpacity = groupNumber(ctx, 'stroke-opacity-expr', ctx.num('stroke-opacity', 1));
  const blur = groupNumber(ctx, 'blur-expr', ctx.num('blur', 0));
  const maplibre = ctx.node.profile === 'maplibre';
  const vertices = ctx.bool('vertices', false);
  const out: CirclePaint[] = [];
  for (const g of features.groups) {
    const points = vertices ? withVertices(g) : g.points;
    if (!points.length) continue;
    const r = Math.max(0, Math.min(radius(g), rmax)) || 0;
    const sw = Math.max(0, Math.min(strokeWidth(g), swmax)) || 0;
    const op = clamp01(opacity(g));
    const fc = fillColor(g);
    const sc = strokeColor(g);
    const fa = clamp01(fc[3] * op * clamp01(fillOpacity(g)));
    const sa = sw > 0 ? clamp01(sc[3] * op * clamp01(strokeOpacity(g))) : 0;
    if ((fa <= 0 && sa <= 0) || !(r + sw > 0)) continue;
    const b = Math.max(0, blur(g)) || 0;
    out.push({
      points,
      r,
      sw,
      fill: [fc[0] * fa, fc[1] * fa, fc[2] * fa, fa],
      stroke: [sc[0] * sa, sc[1] * sa, sc[2] * sa, sa],
      aa: maplibre ? Math.max(b, 1 / (r + sw)) : b,
    });
  }
  return out;
}

/**
 * A group's points and the vertices of its lines and polygon rings, as MapLibre's circle layers
 * draw them (circle_bucket.ts: a circle at every point of the geometry, a ring's closing point
 * too, so its first vertex is drawn twice). Points made by clipping (cut line ends, the ends of
 * cut ring edges) are left out: they are not the feature's vertices.
 */
export function withVertices(g: FeatureGroup): Float64Array {
  if (!g.lines.length && !g.polygons.length) return g.points;
  const out: number[] = Array.from(g.points);
  for (let i = 0; i < g.lines.length; i++) {
    const l = g.lines[i]!;
    const cut = g.cutEnds?.[i] ?? 0;
    const n = l.length >> 1;
    for (let k = 0; k < n; k++) {
      if ((k === 0 && cut & CUT_START) || (k === n - 1 && cut & CUT_END)) continue;
      out.push(l[k * 2]!, l[k * 2 + 1]!);
    }
  }
  for (let i = 0; i < g.polygons.length; i++) {
    const poly = g.polygons[i]!;
    for (let r = 0; r < poly.length; r++) {
      const ring = poly[r]!;
      const cuts = g.polygonCuts?.[i]?.[r];
      let n = ring.length >> 1;
      if (n > 1 && ring[0] === ring[n * 2 - 2] && ring[1] === ring[n * 2 - 1]) n--;
      if (n < 1) continue;
      // Edge k runs from vertex k to k + 1 (wrapping); a vertex on a cut edge was made by clipping.
      const made = (k: number) => cuts !== undefined && (cuts[k] === 1 || cuts[(k + n - 1) % n] === 1);
      for (let k = 0; k <= n; k++) {
        const v = k % n;
        if (made(v)) continue;
        out.push(ring[v * 2]!, ring[v * 2 + 1]!);
      }
    }
  }
  return Float64Array.from(out);
}
