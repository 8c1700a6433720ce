// MapLibre sprite sheets: `<base>.json` (icon name -> x, y, width, height, pixelRatio) and
// `<base>.png`, or `<base>@2x.json` / `.png` for pixel ratio 2 and more (falling back to the 1x
// sheet when a style has none), read through the loader and cut into icons on demand.
import type { Sprite } from '../types.js';
import type { DecodedImage, ImageDecoder, Loader } from './types.js';

/** Largest sheet side accepted, pixels. */
const MAX_SHEET_SIDE = 8192;

export interface SpriteSheet {
  /** The sheet's pixel ratio (2 for an @2x sheet). */
  pixelRatio: number;
  /** An icon as a premultiplied sprite (its pixelRatio from the index), or undefined when the sheet has none of that name. */
  icon(name: string): Sprite | undefined;
  names(): string[];
}

export type SpriteSheetLoader = (base: string, ratio: number, signal?: AbortSignal) => Promise<SpriteSheet>;

interface IconEntry {
  x: number;
  y: number;
  width: number;
  height: number;
  pixelRatio?: number;
}

export function createSpriteSheetLoader(loader: Loader | undefined, decode: ImageDecoder | undefined): SpriteSheetLoader {
  const cache = new Map<string, Promise<SpriteSheet>>();
  const load = (base: string, suffix: string, signal?: AbortSignal) => {
    const key = `${loader?.key?.(base) ?? base}${suffix}`;
    let p = cache.get(key);
    if (!p) {
      p = readSheet(base, suffix, loader, decode, signal);
      cache.set(key, p);
      p.catch(() => cache.delete(key));
    }
    return p;
  };
  return async (base, ratio, signal) => {
    if (ratio >= 2) {
      try {
        return await load(base, '@2x', signal);
      } catch {
        // No @2x sheet: the 1x one, magnified.
      }
    }
    return load(base, '', signal);
  };
}

async function readSheet(
  base: string,
  suffix: string,
  loader: Loader | undefined,
  decode: ImageDecoder | undefined,
  signal?: AbortSignal,
): Promise<SpriteSheet> {
  if (!loader) throw new Error(`sprite '${base}': this host binds no loader`);
  if (!decode) throw new Error(`sprite '${base}': this host has no image decoder`);
  const read = async (ext: string) => {
    try {
      return await loader.load(`${base}${suffix}${ext}`, undefined, signal);
    } catch (e) {
      throw new Error(`sprite '${base}${suffix}${ext}' cannot be loaded: ${(e as Error)?.message ?? e}`);
    }
  };
  const [json, png] = await Promise.all([read('.json'), read('.png')]);
  let index: Record<string, IconEntry>;
  try {
    index = JSON.parse(new TextDecoder().decode(json)) as Record<string, IconEntry>;
  } catch (e) {
    throw new Error(`sprite '${base}${suffix}.json' is not valid JSON: ${(e as Error).message}`);
  }
  let img: DecodedImage;
  try {
    img = await decode(png);
  } catch (e) {
    throw new Error(`sprite '${base}${suffix}.png' is not a readable image: ${(e as Error)?.message ?? e}`);
  }
  if (img.width > MAX_SHEET_SIDE || img.height > MAX_SHEET_SIDE)
    throw new Error(`sprite '${base}${suffix}.png' is ${img.width} x ${img.height} px; at most ${MAX_SHEET_SIDE} per side`);
  const icons = new Map<string, Sprite>();
  return {
    pixelRatio: suffix === '@2x' ? 2 : 1,
    names: () => Object.keys(index),
    icon(name) {
      const e = index[name];
      if (!e || typeof e !== 'object') return undefined;
      let s = icons.get(name);
      if (!s) icons.set(name, (s = cut(img, e)));
      return s;
    },
  };
}

/** One icon of the sheet, clipped to the sheet, as a premultiplied sprite. */
function cut(img: DecodedImage, e: IconEntry): Sprite {
  const x0 = Math.max(0, Math.floor(e.x));
  const y0 = Math.max(0, Math.floor(e.y));
  const w = Math.max(1, Math.min(img.width - x0, Math.floor(e.width)));
  const h = Math.max(1, Math.min(img.height - y0, Math.floor(e.height)));
  const data = new Float32Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = ((y0 + y) * img.width + x0 + x) * 4;
      const o = (y * w + x) * 4;
      const a = (img.data[s + 3] ?? 0) / 255;
      data[o] = ((img.data[s] ?? 0) / 255) * a;
      data[o + 1] = ((img.data[s + 1] ?? 0) / 255) * a;
      data[o + 2] = ((img.data[s + 2] ?? 0) / 255) * a;
      data[o + 3] = a;
    }
  }
  const sprite: Sprite = { kind: 'sprite', width: w, height: h, data };
  if (typeof e.pixelRatio === 'number' && e.pixelRatio > 0 && e.pixelRatio !== 1) sprite.pixelRatio = e.pixelRatio;
  return sprite;
}
