import { bool, color, expr, num, numRef, oneOfEnum, opacityRef } from '../../style/fields.js';
import { strokeMapLibreCpu } from './maplibre.js';
import { strokeReach } from '../../geometry/stroke.js';
import { DEFAULT_SIZE_BOUND, sizeBound } from '../../expr/paint.js';
import { paintOp } from '../declare.js';
import { gpu } from './gpu.js';
import { strokeSolidCpu } from './cpu.js';
import { styleOf } from './plan.js';

/** Lines and polygon rings stroked at a constant (or per-feature) width, anti-aliased. */
export const strokeSolid = paintOp({
  name: 'stroke-solid',
  description: 'strokes lines and polygon rings, anti-aliased',
  fields: {
    width: numRef({ min: 0, default: 1, unit: 'px', description: 'line width in pixels' }),
    'width-max': num({
      min: 0,
      unit: 'px',
      description: 'bound of width (an @node port) or width-expr; larger values clamp to it',
    }),
    color: color('stroke colour (default #000000)'),
    opacity: opacityRef(),
    join: oneOfEnum(['miter', 'round', 'bevel'], 'miter'),
    cap: oneOfEnum(['butt', 'round', 'square'], 'butt'),
    'miter-limit': num({ min: 1, default: 2 }),
    offset: numRef({
      default: 0,
      unit: 'px',
      description: 'pixels to the right of the line direction',
    }),
    'width-expr': expr('number', 'per-feature width', 'px'),
    'color-expr': expr('color', 'per-feature colour'),
    'opacity-expr': expr('number', 'per-feature opacity'),
    profile: {
      ...oneOfEnum(['area', 'maplibre'], 'area'),
      description:
        "'area': exact-area coverage of each feature's outline; 'maplibre': MapLibre GL's line geometry and shader (each triangle blended in turn, so translucent joins draw twice; ends cut without anti-aliasing; the edge fade widened by blur), with gap-width, blur and per-feature offset, join and cap (docs/maplibre.md)",
    },
    'gap-width': numRef({ min: 0, default: 0, unit: 'px', description: "profile maplibre: a casing's gap, in pixels (two lines of width each side of it)" }),
    'gap-width-max': num({ min: 0, unit: 'px', description: 'bound of gap-width (an @node port) or gap-width-expr' }),
    'gap-width-expr': expr('number', 'profile maplibre: per-feature gap width', 'px'),
    blur: numRef({ min: 0, default: 0, unit: 'px', description: 'profile maplibre: pixels added to the 1 px fade across the line edge' }),
    'blur-max': num({ min: 0, unit: 'px', description: 'bound of blur (an @node port) or blur-expr' }),
    'blur-expr': expr('number', 'profile maplibre: per-feature blur', 'px'),
    'offset-max': num({ min: 0, unit: 'px', description: 'bound of |offset| (an @node port) or offset-expr' }),
    'offset-expr': expr('number', 'profile maplibre: per-feature offset', 'px'),
    'join-expr': expr('string', "profile maplibre: per-feature join ('miter', 'round', 'bevel')"),
    'cap-expr': expr('string', "profile maplibre: per-feature cap ('butt', 'round', 'square')"),
    'dash-array': {
      type: 'array',
      items: { type: 'number', minimum: 0 },
      maxItems: 64,
      description:
        "profile maplibre: dash and gap lengths in line widths (MapLibre's line-dasharray: measured in the width at the whole zoom below, drawn from its dash texture with its edge fade)",
    },
    dx: numRef({ default: 0, unit: 'px', description: 'profile maplibre: moves the lines this many pixels east (line-translate)' }),
    dy: numRef({ default: 0, unit: 'px', description: 'profile maplibre: moves the lines this many pixels south' }),
    'dx-max': num({ min: 0, unit: 'px', description: 'bound of |dx| when it is an @node port' }),
    'dy-max': num({ min: 0, unit: 'px', description: 'bound of |dy| when it is an @node port' }),
    'round-limit': num({ min: 0, default: 1.05, description: 'profile maplibre: round joins sharper than this miter ratio are round, others miter' }),
    'join-ends': {
      ...bool(false),
      description:
        "butt and square ends that meet another line's end (of this node) reach half the anti-aliasing width further, so lines meeting end to end join without a seam (MapLibre cuts those ends aliased)",
    },
  },
  pad(bound, _field, node) {
    if (node.profile === 'maplibre') {
      // The outset (gap / 2 + width + the half-pixel fade) and the offset, times the longest
      // extrusion MapLibre stores (a byte: 127 / 63 on each axis, under 2.9 half widths).
      const w = sizeBound(bound, node, 'width') + sizeBound(bound, node, 'gap-width') / 2 + 0.5;
      const o = node.offset === undefined && node['offset-expr'] === undefined ? 0 : sizeBound(bound, node, 'offset');
      const t = Math.max(
        node.dx === undefined ? 0 : Math.abs(sizeBound(bound, node, 'dx')),
        node.dy === undefined ? 0 : Math.abs(sizeBound(bound, node, 'dy')),
      );
      return Math.ceil((w + Math.abs(o)) * 2.9 + 1 + t);
    }
    const { join, cap, miterLimit } = styleOf(node);
    const width = sizeBound(bound, node, 'width');
    const offset = node.offset === undefined ? 0 : (bound('offset') ?? DEFAULT_SIZE_BOUND);
    return Math.ceil(strokeReach(width, join, cap, miterLimit, offset));
  },
  paintsOnto: true,
  gpu,
  cpu: (ctx) => (ctx.node.profile === 'maplibre' ? strokeMapLibreCpu(ctx) : strokeSolidCpu(ctx)),
});
