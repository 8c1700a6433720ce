// Node host loader: files relative to the style's directory, and http(s) URLs.
import { readFile, open } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Loader } from '../sources/types.js';

export interface NodeLoaderOptions {
  /** Directory that relative paths resolve against (the style file's directory). */
  baseDir: string;
  /** Allow paths that escape baseDir (default false). */
  allowOutside?: boolean;
}

export class NodeLoader implements Loader {
  readonly baseDir: string;
  readonly allowOutside: boolean;

  constructor(o: NodeLoaderOptions) {
    this.baseDir = path.resolve(o.baseDir);
    this.allowOutside = o.allowOutside ?? false;
  }

  /** Resolve a style-relative path, refusing escapes from the style's directory unless allowed. */
  resolvePath(ref: string): string {
    const p = path.resolve(this.baseDir, ref.startsWith('file://') ? new URL(ref).pathname : ref);
    if (!this.allowOutside) {
      const rel = path.relative(this.baseDir, p);
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        throw new Error(`'${ref}' is outside the style's directory (${this.baseDir}); allow it with --allow-outside`);
      }
    }
    return p;
  }

  async load(ref: string, range?: { offset: number; length: number }, signal?: AbortSignal): Promise<Uint8Array> {
    // `npm:<package>/<file>`: data shipped inside an installed npm package (e.g. world-atlas).
    if (ref.startsWith('npm:')) return this.readFile(createRequire(path.join(this.baseDir, 'noop.js')).resolve(ref.slice(4)), range, signal);
    if (/^https?:\/\//.test(ref)) {
      const headers: Record<string, string> = {};
      if (range) headers.range = `bytes=${range.offset}-${range.offset + range.length - 1}`;
      const res = await fetch(ref, { headers, signal });
      if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText} for ${ref}`);
      const buf = new Uint8Array(await res.arrayBuffer());
      // A server that ignores Range sends the whole body.
      if (range && res.status === 200) return buf.subarray(range.offset, range.offset + range.length);
      return buf;
    }
    return this.readFile(this.resolvePath(ref), range, signal);
  }

  private async readFile(p: string, range: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    if (!range) return new Uint8Array(await readFile(p, { signal }));
    const fh = await open(p, 'r');
    try {
      const buf = Buffer.alloc(range.length);
      const { bytesRead } = await fh.read(buf, 0, range.length, range.offset);
      return new Uint8Array(buf.buffer, buf.byteOffset, bytesRead);
    } finally {
      await fh.close();
    }
  }
}
