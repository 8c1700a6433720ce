// Node host loader: files relative to the style's directory, http(s) URLs, and `npm:` package
// files; it also carries the host's image decoder (sharp) for DEM tiles.
import { readFile, open } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { ImageDecoder, Loader } from '../../sources/types.js';
import { decodeImage } from './image.js';

export interface NodeLoaderOptions {
  /** Directory that relative paths resolve against (the style file's directory). */
  baseDir: string;
  /** Allow paths that escape baseDir (default false). */
  allowOutside?: boolean;
}

export class NodeLoader implements Loader {
  readonly baseDir: string;
  readonly allowOutside: boolean;
  readonly decodeImage: ImageDecoder = decodeImage;

  constructor(o: NodeLoaderOptions) {
    this.baseDir = path.resolve(o.baseDir);
    this.allowOutside = o.allowOutside ?? false;
  }

  /** Resolve a style-relative path, refusing escapes from the style's directory unless allowed. */
  resolvePath(ref: string): string {
    const p = path.resolve(this.baseDir, ref.startsWith('file://') ? fileURLToPath(ref) : ref);
    if (!this.allowOutside) {
      const rel = path.relative(this.baseDir, p);
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        throw new Error(`'${ref}' is outside the style's directory (${this.baseDir}); allow it with --allow-outside`);
      }
    }
    return p;
  }

  /** The absolute path or URL: one file read by two styles is one cache entry. */
  key(ref: string): string {
    if (ref.startsWith('npm:') || /^https?:\/\//.test(ref)) return ref;
    return path.resolve(this.baseDir, ref.startsWith('file://') ? fileURLToPath(ref) : ref);
  }

  async load(ref: string, range?: { offset: number; length: number }, signal?: AbortSignal): Promise<Uint8Array> {
    // `npm:<package>/<file>`: data shipped inside an installed npm package (e.g. world-atlas).
    if (ref.startsWith('npm:')) return this.readFile(createRequire(path.join(this.baseDir, 'noop.js')).resolve(ref.slice(4)), range, signal);
    if (/^https?:\/\//.test(ref)) return this.fetchUrl(ref, range, signal);
    return this.readFile(this.resolvePath(ref), range, signal);
  }

  private async fetchUrl(ref: string, range: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.offset}-${range.offset + range.length - 1}`;
    const res = await fetch(ref, { headers, signal });
    // 416: the range starts past the end of the resource (pmtiles asks for 16 KiB of a smaller file).
    if (range && res.status === 416) return new Uint8Array(0);
    if (!res.ok) throw new Error(`HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''} for ${ref}`);
    const buf = new Uint8Array(await res.arrayBuffer());
    // A server that ignores Range sends the whole body.
    if (range && res.status === 200) return buf.subarray(range.offset, range.offset + range.length);
    return buf;
  }

  private async readFile(p: string, range: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    if (!range) return new Uint8Array(await readFile(p, { signal }));
    signal?.throwIfAborted();
    const fh = await open(p, 'r');
    try {
      const buf = new Uint8Array(range.length);
      let got = 0;
      // One read may return less than asked; loop until the range or the file ends.
      while (got < range.length) {
        const { bytesRead } = await fh.read(buf, got, range.length - got, range.offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === range.length ? buf : buf.subarray(0, got);
    } finally {
      await fh.close();
    }
  }
}
