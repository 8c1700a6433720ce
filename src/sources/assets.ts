// Image assets of a style (brush tips, stamp sprites, fill patterns): PNG / WebP bytes through the
// host's loader (so paths resolve against the style file, escapes are refused, http(s):// and npm:
// work as for sources), decoded by the host's image decoder, converted once to a premultiplied
// Sprite and cached per style. A missing or corrupt asset rejects with the path and the cause.
import { fromRGBA8 } from '../render/encode.js';
import type { Sprite } from '../types.js';
import type { DecodedImage, ImageDecoder, Loader } from './types.js';

/** Largest asset accepted, in pixels per side (an asset is a tip or a pattern tile, not a map). */
const MAX_ASSET_SIDE = 2048;

export type SpriteLoader = (ref: string, signal?: AbortSignal) => Promise<Sprite>;

/** Loads and caches sprites by the loader's key of each reference (one load per asset and style). */
export function createSpriteLoader(loader: Loader | undefined, decode: ImageDecoder | undefined): SpriteLoader {
  const cache = new Map<string, Promise<Sprite>>();
  return (ref, signal) => {
    const key = loader?.key?.(ref) ?? ref;
    let p = cache.get(key);
    if (!p) {
      p = loadSprite(ref, loader, decode, signal);
      cache.set(key, p);
      // A failure is not cached: the file may appear, the network may come back.
      p.catch(() => cache.delete(key));
    }
    return p;
  };
}

async function loadSprite(ref: string, loader: Loader | undefined, decode: ImageDecoder | undefined, signal?: AbortSignal): Promise<Sprite> {
  if (!loader) throw new Error(`asset '${ref}': this host binds no loader for assets`);
  if (!decode) throw new Error(`asset '${ref}': this host has no image decoder`);
  let bytes: Uint8Array;
  try {
    bytes = await loader.load(ref, undefined, signal);
  } catch (e) {
    // The loader's own "cannot read '<ref>': " would name the ref twice.
    throw new Error(`asset '${ref}' cannot be loaded: ${String((e as Error)?.message ?? e).replace(`cannot read '${ref}': `, '')}`);
  }
  let img: DecodedImage;
  try {
    img = await decode(bytes);
  } catch (e) {
    throw new Error(`asset '${ref}' is not a readable image: ${(e as Error)?.message ?? e}`);
  }
  if (img.width < 1 || img.height < 1 || img.width > MAX_ASSET_SIDE || img.height > MAX_ASSET_SIDE) {
    throw new Error(`asset '${ref}' is ${img.width} x ${img.height} px; assets are 1 to ${MAX_ASSET_SIDE} px per side`);
  }
  // Premultiplied floats in [0, 1], as any raster decoded from 8-bit straight alpha.
  return { ...fromRGBA8(img.data, img.width, img.height), kind: 'sprite' };
}
