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
  planned('threshold', 'a hard or soft threshold on alpha or luma', 'raster', { input: R }, {
    input: nodeRef(), level: numRef({ min: 0, max: 1, default: 0.5 }), softness: numRef({ min: 0, max: 1, default: 0 }),
    channel: oneOfEnum(['a', 'luma'], 'a'),
  }, ['input']),
];

