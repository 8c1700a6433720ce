// Ops of the format that this version validates but does not render yet. Building a graph that
// uses one fails with a clear message; each moves to its own module when it is implemented.
import { bool, color, expr, int, nodeRef, num, numRef, oneOfEnum, str, colorParam, type Schema } from '../style/fields.js';
import type { Kind } from '../types.js';
import type { NodeSpec, OpDef } from './types.js';

function planned(name: string, description: string, output: OpDef['output'], inputs: Record<string, readonly Kind[]>, fields: Record<string, Schema>, required: string[], extra: Partial<OpDef> = {}): OpDef {
  return { name, description, output, inputs, fields, required, planned: true, ...extra };
}

const F = ['features'] as const;
const R = ['raster'] as const;
const chan = oneOfEnum(['r', 'g', 'b', 'a', '0', '1']);

export const PLANNED: OpDef[] = [
  planned('brightness-contrast', 'brightness shift and contrast slope', 'raster', { input: R }, {
    input: nodeRef(), brightness: num({ min: -1, max: 1, default: 0 }), contrast: num({ min: -1, max: 1, default: 0 }),
  }, ['input']),
  planned('channel-shuffle', 'feeds each channel from a named channel or constant', 'raster', { input: R }, {
    input: nodeRef(), r: chan, g: chan, b: chan, a: chan,
  }, ['input']),
  planned('color-to-alpha', 'makes a colour transparent', 'raster', { input: R }, {
    input: nodeRef(), color: color(), threshold: num({ min: 0, max: 1, default: 0 }), softness: num({ min: 0, max: 1, default: 0.1 }),
  }, ['input', 'color']),
  planned('displace', 'reads input at an offset from a displacement raster', 'raster', { input: R, displacement: R }, {
    input: nodeRef(), displacement: nodeRef(),
    'amp-px': numRef({ min: 0 }), 'amp-x-px': numRef({ min: 0 }), 'amp-y-px': numRef({ min: 0 }),
    'amp-px-max': num({ min: 0 }), 'amp-x-px-max': num({ min: 0 }), 'amp-y-px-max': num({ min: 0 }),
    boundary: oneOfEnum(['clamp', 'transparent', 'mirror'], 'clamp'),
  }, ['input', 'displacement', 'amp-px'], {
    paddingFields: ['amp-px'],
    pad: (b, field) => (field === 'input' ? Math.max(b('amp-px') ?? 0, b('amp-x-px') ?? 0, b('amp-y-px') ?? 0) : 0),
  }),
  planned('dither', 'reduces to a palette with dithering', 'raster', { input: R }, {
    input: nodeRef(),
    palette: { type: 'array', minItems: 1, items: colorParam() },
    method: oneOfEnum(['floyd-steinberg', 'ordered'], 'floyd-steinberg'),
    amount: num({ min: 0, max: 1, default: 0.5 }),
    space: oneOfEnum(['lab', 'rgb'], 'lab'),
  }, ['input', 'palette']),
  planned('circle', 'a centred disk', (n: NodeSpec) => (n.kind === 'sprite' ? 'sprite' : 'raster'), {}, {
    color: color(), 'radius-frac': numRef({ min: 0, max: 1 }), hardness: numRef({ min: 0, max: 1 }),
    kind: oneOfEnum(['raster', 'sprite'], 'raster'), 'width-px': int({ min: 1 }), 'height-px': int({ min: 1 }),
  }, ['color', 'radius-frac']),
  planned('noise', 'world-anchored value or simplex noise', (n: NodeSpec) => (n.output === 'raster' ? 'raster' : 'scalar-field'), {}, {
    'scale-px': numRef({ exclusiveMin: 0, default: 64 }), octaves: int({ min: 1, max: 12, default: 1 }), seed: int({ min: 0 }),
    kind: oneOfEnum(['value', 'simplex'], 'value'), output: oneOfEnum(['field', 'raster'], 'field'),
  }, []),
  planned('threshold', 'a hard or soft threshold on alpha or luma', 'raster', { input: R }, {
    input: nodeRef(), level: numRef({ min: 0, max: 1, default: 0.5 }), softness: numRef({ min: 0, max: 1, default: 0 }),
    channel: oneOfEnum(['a', 'luma'], 'a'),
  }, ['input']),
];

