import { RenderError } from '../../errors.js';
import { str } from '../../style/fields.js';
import type { Sprite } from '../../types.js';
import type { OpDef } from '../types.js';
import type { SpriteSheet } from '../../sources/sprites.js';

const NONE: Sprite = { kind: 'sprite', width: 1, height: 1, data: new Float32Array(4) };

/**
 * One icon of a MapLibre sprite sheet as a sprite (for fill-pattern, stamp, brush-file): the @2x
 * sheet at pixel ratio 2 and more (its icons carry pixelRatio 2, so they draw at the same size).
 */
export const icon: OpDef = {
  name: 'icon',
  description: 'one icon of a MapLibre sprite sheet (<sprite>.json + <sprite>.png, @2x at pixel ratio 2) as a sprite',
  output: 'sprite',
  inputs: {},
  fields: {
    sprite: str('the sheet: a path or URL without .json / .png, as a MapLibre style writes `sprite`'),
    name: str('the icon name in the sheet'),
    missing: {
      type: 'string',
      enum: ['error', 'transparent'],
      default: 'error',
      description: 'an icon the sheet lacks: an error, or nothing drawn (MapLibre)',
    },
  },
  required: ['sprite', 'name'],
  async cpu(ctx) {
    const base = String(ctx.node.sprite);
    const name = String(ctx.node.name);
    if (!ctx.sources.spriteSheet) throw new RenderError(`node '${ctx.id}': this host binds no loader for sprite sheets`);
    let sheet: SpriteSheet;
    try {
      sheet = await ctx.sources.spriteSheet(base, ctx.window.pixelRatio ?? 1, ctx.signal);
    } catch (e) {
      throw new RenderError(`node '${ctx.id}' field 'sprite': ${(e as Error).message}`);
    }
    const s = sheet.icon(name);
    if (s) return s;
    if (ctx.node.missing === 'transparent') return NONE;
    throw new RenderError(`node '${ctx.id}' field 'name': the sprite '${base}' has no icon '${name}'`);
  },
};
