import { bool, color, expr, num, numRef, oneOfEnum, opacityRef } from '../../style/fields.js';
import { sizeBound } from '../../expr/paint.js';
import { paintOp } from '../declare.js';
import { gpu } from './gpu.js';
import { circlesCpu } from './cpu.js';

/**
 * Filled disks at every feature point with per-feature paint. Coverage is analytic:
 * clamp(r - d + 0.5, 0, 1) with d from the pixel centre. The stroke ring lies outside the fill
 * (MapLibre's convention): fill from 0 to r, ring from r to r + stroke-width. With `blur` or the
 * `maplibre` profile the edges are MapLibre's circle shader instead: smoothstep ramps inward from
 * the outer radius R = r + stroke-width over max(blur, 1 px / R) of R (docs/format.md).
 */
export const circles = paintOp({
  name: 'circles',
  description: 'filled disks (and optional stroke rings) at every point',
  fields: {
    color: color('fill colour (default #000000)'),
    radius: numRef({ min: 0, default: 5, unit: 'px' }),
    'radius-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of radius (an @node port) or radius-expr; larger values clamp to it',
    }),
    opacity: opacityRef('multiplies the fill and the stroke'),
    'fill-opacity': opacityRef('multiplies the fill only'),
    'stroke-opacity': opacityRef('multiplies the stroke only'),
    blur: numRef({ min: 0, default: 0, description: "edge fade as a fraction of the outer radius (MapLibre's circle-blur); 1 fades from the centre" }),
    profile: oneOfEnum(['area', 'maplibre'], 'area'),
    vertices: {
      ...bool(false),
      description:
        "also a circle at every vertex of lines and polygon rings (MapLibre's circle layers; a ring's first vertex twice, as MapLibre draws its closing point); vertices made by clipping are left out",
    },
    'stroke-color': color('stroke colour (default #000000)'),
    'stroke-width': numRef({ min: 0, default: 0, unit: 'px' }),
    'stroke-width-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of stroke-width (an @node port) or stroke-width-expr',
    }),
    'color-expr': expr('color'),
    'radius-expr': expr('number', undefined, 'px'),
    'opacity-expr': expr('number'),
    'stroke-color-expr': expr('color'),
    'stroke-width-expr': expr('number', undefined, 'px'),
    'fill-opacity-expr': expr('number'),
    'stroke-opacity-expr': expr('number'),
    'blur-expr': expr('number'),
  },
  // Points this far outside the canvas still reach into it (+0.5: the anti-aliased rim).
  pad: (bound, _field, node) => Math.ceil(sizeBound(bound, node, 'radius') + sizeBound(bound, node, 'stroke-width') + 0.5),
  paintsOnto: true,
  gpu,
  cpu: circlesCpu,
});
