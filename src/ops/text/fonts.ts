// The fonts of a text node: its `font` field (one reference or a fallback list) loaded through the
// host's loader once per style (SourceRegistry.font) and kept as one FontStack per list, so the
// shaped strings of a list are cached across renders.
import { RenderError } from '../../errors.js';
import type { SourceRegistry } from '../../sources/types.js';
import type { OpContext } from '../types.js';
import { FontStack } from './shape.js';
import { loadTextFont, type TextFont } from './font.js';
import type { Loader } from '../../sources/types.js';

/**
 * The default font list: DejaVu Sans (dejavu-fonts-ttf: Latin, Greek, Cyrillic, Arabic, Hebrew...),
 * then Noto Sans Devanagari and Noto Sans Thai (@fontsource, WOFF) for what DejaVu lacks.
 */
export const DEFAULT_FONT: readonly string[] = [
  'npm:dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  'npm:@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff',
  'npm:@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff',
];

export type FontLoader = (ref: string, signal?: AbortSignal) => Promise<TextFont>;

/** Loads and caches fonts by the loader's key of each reference (one load per font and style). */
export function createFontLoader(loader: Loader | undefined): FontLoader {
  const cache = new Map<string, Promise<TextFont>>();
  return (ref, signal) => {
    const key = loader?.key?.(ref) ?? ref;
    let p = cache.get(key);
    if (!p) {
      p = (async () => {
        if (!loader) throw new Error(`font '${ref}': this host binds no loader for assets`);
        let bytes: Uint8Array;
        try {
          bytes = await loader.load(ref, undefined, signal);
        } catch (e) {
          throw new Error(`font '${ref}' cannot be loaded: ${(e as Error)?.message ?? e}`);
        }
        try {
          return await loadTextFont(ref, bytes);
        } catch (e) {
          throw new Error(`font '${ref}' is not a readable font: ${(e as Error)?.message ?? e}`);
        }
      })();
      cache.set(key, p);
      // A failure is not cached: the file may appear, the network may come back.
      p.catch(() => cache.delete(key));
    }
    return p;
  };
}

const stacks = new WeakMap<SourceRegistry, Map<string, Promise<FontStack>>>();

/** The FontStack of a `font` field value (a reference or a list), per registry. */
export async function fontStackOf(ctx: OpContext, value: unknown): Promise<FontStack> {
  const refs = (Array.isArray(value) ? value : [value]).map(String);
  const reg = ctx.sources;
  if (!reg.font) throw new RenderError(`node '${ctx.id}' field 'font': this host binds no font loader`);
  let byList = stacks.get(reg);
  if (!byList) stacks.set(reg, (byList = new Map()));
  const key = JSON.stringify(refs);
  let p = byList.get(key);
  if (!p) {
    const load = reg.font.bind(reg);
    p = Promise.all(refs.map((r) => load(r))).then((fonts) => new FontStack(fonts));
    byList.set(key, p);
    p.catch(() => byList!.delete(key));
  }
  try {
    return await p;
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    throw new RenderError(`node '${ctx.id}' field 'font': ${(e as Error)?.message ?? e}`, { cause: e });
  }
}
