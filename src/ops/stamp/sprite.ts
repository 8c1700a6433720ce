// Sprite-valued fields (stamp `sprite`, fill-pattern `pattern`, brush-file `src`) and the bilinear
// sprite sampling both backends share (the WGSL twin is sprite-sample.wgsl beside this file).
import { RenderError } from '../../errors.js';
import type { Schema } from '../../style/fields.js';
import type { Raster, Sprite } from '../../types.js';
import type { OpContext } from '../types.js';

/** A field holding an `@node` (a sprite, or what `kinds` allow) or a literal image asset path. */
export function assetField(description: string): Schema {
  return {
    type: 'string',
    minLength: 1,
    'x-asset': true,
    description: `${description}: an @node, or a PNG / WebP asset path (relative to the style file, http(s):// or npm:)`,
    'x-expect': 'an @node reference or an image asset path',
  };
}

/** Whether an asset field names a node (`@name`) rather than a file. */
export const isNodeRef = (v: unknown): boolean => typeof v === 'string' && v.startsWith('@');

/** The sprite (or raster) of an asset field: the wired node's value, or the asset loaded through the host. */
export async function spriteInput(ctx: OpContext, field: string): Promise<Sprite | Raster> {
  const v = ctx.node[field];
  if (isNodeRef(v)) return ctx.input<'sprite'>(field) as Sprite | Raster;
  const ref = String(v);
  if (!ctx.sources.sprite) throw new RenderError(`node '${ctx.id}' field '${field}': asset '${ref}' cannot be loaded: this host binds no asset loader`);
  try {
    return await ctx.sources.sprite(ref, ctx.signal);
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw new RenderError(`node '${ctx.id}' field '${field}': ${(e as Error)?.message ?? e}`, { cause: e });
  }
}

/**
 * Bilinear sample of a premultiplied sprite at (u, v) in sprite pixels (texel centres at i + 0.5),
 * into out[0..3]. Texels outside the sprite are transparent (a stamp or a dab fades out at its
 * border) or, with `wrap`, repeat (a pattern tile).
 */
export function sampleSprite(s: Sprite, u: number, v: number, wrap: boolean, out: Float64Array): void {
  const w = s.width;
  const h = s.height;
  const x = u - 0.5;
  const y = v - 0.5;
  const fx0 = Math.floor(x);
  const fy0 = Math.floor(y);
  const fx = x - fx0;
  const fy = y - fy0;
  out[0] = out[1] = out[2] = out[3] = 0;
  for (let j = 0; j < 2; j++) {
    let ty = fy0 + j;
    const wy = j === 0 ? 1 - fy : fy;
    if (wy === 0) continue;
    if (wrap) ty = ((ty % h) + h) % h;
    else if (ty < 0 || ty >= h) continue;
    for (let i = 0; i < 2; i++) {
      let tx = fx0 + i;
      const wgt = (i === 0 ? 1 - fx : fx) * wy;
      if (wgt === 0) continue;
      if (wrap) tx = ((tx % w) + w) % w;
      else if (tx < 0 || tx >= w) continue;
      const p = (ty * w + tx) * 4;
      out[0] += s.data[p]! * wgt;
      out[1] += s.data[p + 1]! * wgt;
      out[2] += s.data[p + 2]! * wgt;
      out[3] += s.data[p + 3]! * wgt;
    }
  }
}
