// Browser host loader: the core's Loader over fetch. Byte ranges become HTTP Range requests
// (pmtiles archives); refs a browser cannot fetch itself (npm:, file paths) go to a host route.
import { browserDecodeImage, canDecodeImagesInBrowser } from '../../sources/image-browser.js';
import type { ImageDecoder, Loader } from '../../sources/types.js';
import { LIMITS } from '../../limits.js';
import { readBody } from '../body.js';

export interface FetchLoaderOptions {
  /** Relative refs (paths in the style's `sources`) resolve against this URL, like a style file's URL. */
  baseUrl: string | URL;
  /**
   * A host route serving the style's data by ref: every ref that is not an http(s), blob or data
   * URL is fetched from `dataUrl + encodeURIComponent(ref)` (the tilegraph server's `/data/`).
   * Without it, relative refs resolve against `baseUrl` and other schemes (`npm:`) fail.
   */
  dataUrl?: string | URL;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Decodes DEM tiles (default: createImageBitmap + OffscreenCanvas where they exist). */
  decodeImage?: ImageDecoder;
}

const FETCHABLE = /^(https?|blob|data):/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export class FetchLoader implements Loader {
  readonly baseUrl: string;
  readonly dataUrl?: string;
  readonly decodeImage?: ImageDecoder;
  private readonly fetchFn: typeof fetch;

  constructor(o: FetchLoaderOptions) {
    this.baseUrl = String(o.baseUrl);
    this.dataUrl = o.dataUrl === undefined ? undefined : String(o.dataUrl);
    // Bound so a bare `fetch` reference is never called with the loader as `this`.
    this.fetchFn = o.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.decodeImage = o.decodeImage ?? (canDecodeImagesInBrowser() ? browserDecodeImage : undefined);
  }

  /** The URL a ref is fetched from. Throws when the ref cannot be reached from a browser. */
  resolve(ref: string): string {
    if (FETCHABLE.test(ref)) return ref;
    if (this.dataUrl !== undefined) return this.dataUrl + encodeURIComponent(ref);
    if (SCHEME.test(ref)) throw new Error(`'${ref}' cannot be fetched by a browser; serve it from a host route and pass dataUrl`);
    return new URL(ref, this.baseUrl).href;
  }

  /** The identity of a ref in the core's tile cache: the URL it is fetched from. */
  key(ref: string): string {
    return this.resolve(ref);
  }

  async load(ref: string, range?: { offset: number; length: number }, signal?: AbortSignal): Promise<Uint8Array> {
    const url = this.resolve(ref);
    const headers: Record<string, string> = {};
    if (range) {
      if (range.length <= 0) return new Uint8Array(0);
      headers.range = `bytes=${range.offset}-${range.offset + range.length - 1}`;
    }
    const res = await this.fetchFn(url, { headers, signal });
    // A range starting at or past the end: no bytes, as the Loader contract allows.
    if (range && res.status === 416) return new Uint8Array(0);
    // A 404 / 410: sources declared with `missing: "empty"` read it as an empty tile.
    if (!res.ok) throw Object.assign(new Error(await failure(ref, url, res)), { notFound: res.status === 404 || res.status === 410 });
    // Bounded: whole answers to LIMITS.maxSourceBytes; a range the server ignores is read up to its end only.
    const bytes = await readBody(res, url, range ? range.offset + range.length : LIMITS.maxSourceBytes, !!range && res.status !== 206);
    // A server that ignores Range answers 200 with the whole body.
    if (range && res.status !== 206) return bytes.subarray(range.offset, range.offset + range.length);
    return bytes;
  }
}

/**
 * Why a fetch failed, in the words of the answer when it is one of our servers' JSON errors
 * (`{error, details: [{message}]}`: "cannot read 'x.geojson': no such file"), else its status.
 */
async function failure(ref: string, url: string, res: Response): Promise<string> {
  const status = `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`;
  if (/json/.test(res.headers.get('content-type') ?? '')) {
    try {
      const body = JSON.parse(new TextDecoder().decode(await readBody(res, url, 64 * 1024, true))) as { details?: { message?: unknown }[] };
      const message = body.details?.[0]?.message;
      if (typeof message === 'string' && message)
        return message.includes(`'${ref}'`) ? `${message} (${status})` : `cannot read '${ref}': ${message} (${status})`;
    } catch {
      // not JSON after all: the status says it
    }
  }
  return `cannot read '${ref}': ${status} for ${url}`;
}
