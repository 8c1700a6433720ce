import { expr, num, numRef, opacityRef } from '../../style/fields.js';
import { newRaster } from '../../backends/cpu/raster.js';
import { RenderError } from '../../errors.js';
import type { Raster, Sprite } from '../../types.js';
import type { OpContext } from '../types.js';
import { paintOp } from '../declare.js';
import { gpu } from './gpu.js';
import { DEFAULT_SIZE_MAX, sizeMaxOf, stampPlan, stampReach, type Stamps } from './plan.js';
import { assetField, sampleSprite, spriteInput } from './sprite.js';

/**
 * A sprite centred on every point, scaled, rotated (degrees clockwise) and faded per feature;
 * sampled bilinearly (texels outside the sprite are transparent), composited source-over in
 * point order.
 */
export const stamp = paintOp({
  name: 'stamp',
  description: 'a sprite at each point',
  inputs: { sprite: ['sprite'] },
  fields: {
    sprite: assetField('the image drawn at each point'),
    scale: numRef({ min: 0, default: 1, unit: 'px', description: 'pixels per sprite texel' }),
    rotation: numRef({ default: 0, unit: 'deg', description: 'degrees clockwise' }),
    opacity: opacityRef(),
    'scale-expr': expr('number', 'per-feature scale', 'px'),
    'rotation-expr': expr('number', 'per-feature rotation', 'deg'),
    'opacity-expr': expr('number', 'per-feature opacity'),
    'size-max': num({
      min: 1,
      max: 1024,
      default: DEFAULT_SIZE_MAX,
      unit: 'px',
      description: "bound of the drawn sprite's larger side in pixels (sets the padding); larger scales clamp to it",
    }),
  },
  required: ['sprite'],
  pad: (_b, _f, node) => Math.ceil((sizeMaxOf(node) * Math.SQRT2) / 2 + 1),
  paintsOnto: true,
  gpu,
  async cpu(ctx) {
    const sprite = await stampSprite(ctx);
    return drawStamps(stampPlan(ctx, sprite), sprite, ctx.canvas.width, ctx.canvas.height, ctx.target);
  },
});

/** The node's sprite: a wired sprite node or an asset. */
export async function stampSprite(ctx: OpContext): Promise<Sprite> {
  const s = await spriteInput(ctx, 'sprite');
  if (s.kind !== 'sprite') throw new RenderError(`node '${ctx.id}' field 'sprite': expected a sprite, got a ${s.kind}`);
  return s;
}

export function drawStamps(st: Stamps, sprite: Sprite, W: number, H: number, target?: Raster): Raster {
  const out = target ?? newRaster(W, H);
  const o = out.data;
  const t = new Float64Array(4);
  const hw = sprite.width / 2;
  const hh = sprite.height / 2;
  for (let i = 0; i < st.count; i++) {
    const [cx, cy, s, op, cos, sin] = st.data.subarray(i * 6, i * 6 + 6) as unknown as number[];
    const reach = stampReach(sprite, s!);
    const xa = Math.max(0, Math.floor(cx! - reach));
    const xb = Math.min(W, Math.ceil(cx! + reach));
    const ya = Math.max(0, Math.floor(cy! - reach));
    const yb = Math.min(H, Math.ceil(cy! + reach));
    for (let y = ya; y < yb; y++) {
      const dy = y + 0.5 - cy!;
      for (let x = xa; x < xb; x++) {
        const dx = x + 0.5 - cx!;
        // Inverse of "rotate the sprite clockwise by the angle, then scale".
        const u = (cos! * dx + sin! * dy) / s! + hw;
        const v = (-sin! * dx + cos! * dy) / s! + hh;
        sampleSprite(sprite, u, v, false, t);
        const a = t[3]! * op!;
        if (a <= 0) continue;
        const p = (y * W + x) * 4;
        const k = 1 - a;
        o[p] = t[0]! * op! + o[p]! * k;
        o[p + 1] = t[1]! * op! + o[p + 1]! * k;
        o[p + 2] = t[2]! * op! + o[p + 2]! * k;
        o[p + 3] = a + o[p + 3]! * k;
      }
    }
  }
  return out;
}
