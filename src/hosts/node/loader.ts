// Node host loader: files relative to the style's directory, http(s) URLs, and `npm:` package
// files; it also carries the host's image decoder (sharp) and brotli (zlib) for the sources.
// Error messages name the ref as the style wrote it, never an absolute path (they reach HTTP
// error bodies); the underlying error stays in `cause` for the server log.
import { statSync } from 'node:fs';
import { readFile, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompress } from 'node:zlib';
import type { ImageDecoder, Loader } from '../../sources/types.js';
import { formatBytes, LIMITS } from '../../limits.js';
import { decodeImage, decodeImageElevation } from './image.js';
import { readBody } from '../body.js';

/** Seconds a network request may take (connect to last byte) before it fails as timed out. */
export const DEFAULT_FETCH_TIMEOUT_S = 10;

/**
 * A host's network-read timeout for a render timeout: half of it, at most DEFAULT_FETCH_TIMEOUT_S.
 * Shorter than the render's, so a source that never answers fails as itself (`timed out after
 * 10 s`, naming the URL) before the render's own timeout fires and hides the cause.
 */
export function defaultFetchTimeoutMs(renderTimeoutMs: number): number {
  return Math.min(DEFAULT_FETCH_TIMEOUT_S * 1000, renderTimeoutMs / 2);
}

export interface NodeLoaderOptions {
  /** Directory that relative paths resolve against (the style file's directory). */
  baseDir: string;
  /** Allow paths that escape baseDir (default false). */
  allowOutside?: boolean;
  /** Milliseconds an http(s) request may take (default 10 s). */
  fetchTimeoutMs?: number;
}

const FS_CAUSES: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is not a directory',
  EMFILE: 'too many open files',
};

/** Why a network request failed, in words: refused, timed out, unknown host, reset... */
function networkCause(e: unknown, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError') return `timed out after ${timeoutMs / 1000} s`;
  const code = err?.cause?.code ?? (err as { code?: string })?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'connection reset';
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return 'timed out';
  }
  return err?.cause?.message ?? err?.message ?? String(e);
}

export class NodeLoader implements Loader {
  readonly baseDir: string;
  readonly allowOutside: boolean;
  readonly fetchTimeoutMs: number;
  readonly decodeImage: ImageDecoder = decodeImage;
  /** DEM tiles that are RGB PNGs: metres without the RGBA8 image (png-decode.ts). */
  readonly decodeElevation = decodeImageElevation;

  constructor(o: NodeLoaderOptions) {
    this.baseDir = path.resolve(o.baseDir);
    this.allowOutside = o.allowOutside ?? false;
    this.fetchTimeoutMs = o.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_S * 1000;
  }

  /** Resolve a style-relative path, refusing escapes from the style's directory unless allowed. */
  resolvePath(ref: string): string {
    const p = path.resolve(this.baseDir, ref.startsWith('file://') ? fileURLToPath(ref) : ref);
    if (!this.allowOutside) {
      const rel = path.relative(this.baseDir, p);
      if (rel.startsWith('..') || path.isAbsolute(rel)) {
        throw new Error(`'${ref}' is outside the style's directory; allow it with --allow-outside`);
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
    if (/^https?:\/\//.test(ref)) return this.fetchUrl(ref, range, signal);
    try {
      return await this.readFile(this.filePath(ref), range, signal);
    } catch (e) {
      throw this.fileError(ref, e);
    }
  }

  /** The size in bytes of a file, `npm:` or relative ref (not a URL), for a server's Content-Range. */
  async size(ref: string): Promise<number> {
    try {
      return (await stat(this.filePath(ref))).size;
    } catch (e) {
      throw this.fileError(ref, e);
    }
  }

  /**
   * `npm:<package>/<file>`: data shipped inside an installed npm package (e.g. world-atlas),
   * resolved from the style's directory first, then from tilegraph's own dependencies (the default
   * font, dejavu-fonts-ttf, is one: a style anywhere can use it).
   */
  private filePath(ref: string): string {
    return ref.startsWith('npm:') ? resolveNpmRef(ref, this.baseDir) : this.resolvePath(ref);
  }

  private fileError(ref: string, e: unknown): Error {
    if ((e as Error)?.name === 'AbortError') return e as Error;
    const code = (e as NodeJS.ErrnoException).code;
    const cause = code && FS_CAUSES[code];
    // Messages without a code are ours (outside the directory) and name no absolute path.
    const err = new Error(cause ? `cannot read '${ref}': ${cause}` : (e as Error).message, { cause: e });
    // A missing file: sources declared with `missing: "empty"` read it as an empty tile.
    return code === 'ENOENT' || code === 'MODULE_NOT_FOUND' ? Object.assign(err, { notFound: true }) : err;
  }

  /** Brotli for PMTiles archives, bounded: zlib stops at maxOutputLength. */
  decompress(bytes: Uint8Array, _codec: 'br', maxBytes: number): Promise<Uint8Array> {
    return new Promise((resolve, reject) =>
      brotliDecompress(bytes, { maxOutputLength: maxBytes }, (err, out) => {
        if (!err) resolve(new Uint8Array(out.buffer, out.byteOffset, out.byteLength));
        else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          reject(new Error(`brotli data inflates to more than ${formatBytes(maxBytes)} (the limit)`));
        else reject(new Error(`corrupt brotli data: ${err.message}`));
      }),
    );
  }

  private async fetchUrl(ref: string, range: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    const headers: Record<string, string> = {};
    if (range) headers.range = `bytes=${range.offset}-${range.offset + range.length - 1}`;
    const timeout = AbortSignal.timeout(this.fetchTimeoutMs);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const res = await fetch(ref, { headers, signal: both });
      // 416: the range starts past the end of the resource (pmtiles asks for 16 KiB of a smaller file).
      if (range && res.status === 416) return new Uint8Array(0);
      if (!res.ok)
        throw Object.assign(new Error(`HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''} for ${ref}`), {
          http: true,
          notFound: res.status === 404 || res.status === 410,
        });
      // A server that ignores Range sends the whole body: only the prefix up to the range's end is read.
      const buf = await readBody(res, ref, range ? range.offset + range.length : LIMITS.maxSourceBytes, !!range && res.status === 200);
      if (range && res.status === 200) return buf.subarray(range.offset, range.offset + range.length);
      return buf;
    } catch (e) {
      if (signal?.aborted) throw e; // the caller's abort, not ours
      if ((e as { http?: boolean }).http) throw e;
      throw new Error(`cannot fetch ${ref}: ${networkCause(e, this.fetchTimeoutMs)}`, { cause: e });
    }
  }

  private async readFile(p: string, range: { offset: number; length: number } | undefined, signal?: AbortSignal): Promise<Uint8Array> {
    if (!range) {
      const size = (await stat(p)).size;
      if (size > LIMITS.maxSourceBytes)
        throw new Error(`'${path.basename(p)}' is ${formatBytes(size)}, above the limit of ${formatBytes(LIMITS.maxSourceBytes)} for a whole file`);
      return new Uint8Array(await readFile(p, { signal }));
    }
    signal?.throwIfAborted();
    if (!Number.isSafeInteger(range.offset) || !Number.isSafeInteger(range.length) || range.offset < 0 || range.length < 0)
      throw new Error(`invalid byte range ${range.offset}+${range.length} of '${path.basename(p)}'`);
    const fh = await open(p, 'r');
    try {
      // Bounded by the file (a range past its end reads nothing) and by LIMITS.maxRangeBytes, so a
      // request for 4 GiB neither allocates it nor hands fs.read a length over 2^31.
      const length = Math.min(range.length, Math.max(0, (await fh.stat()).size - range.offset));
      if (length > LIMITS.maxRangeBytes)
        throw new Error(`a range of ${formatBytes(length)} of '${path.basename(p)}' is above the limit of ${formatBytes(LIMITS.maxRangeBytes)} for one read`);
      const buf = new Uint8Array(length);
      let got = 0;
      // One read may return less than asked; loop until the range or the file ends.
      while (got < length) {
        const { bytesRead } = await fh.read(buf, got, length - got, range.offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got === length ? buf : buf.subarray(0, got);
    } finally {
      await fh.close();
    }
  }
}

/** Where tilegraph itself is installed: its own `node_modules` (and a project's that installed it) hold the examples' data packages. */
const INSTALL_DIR = path.dirname(fileURLToPath(import.meta.url));

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/**
 * The file of `npm:<package>/<file>` (`<package>` may be `@scope/name`): the first
 * `node_modules/<package>` folder found going up from the style's directory, then from
 * tilegraph's installation, then from the working directory (docs/sources.md). Read as a plain
 * file of the package folder (a package's `exports` map does not hide data files); a file part
 * that leaves the package folder is refused.
 */
export function resolveNpmRef(ref: string, styleDir: string, cwd = process.cwd()): string {
  const m = /^npm:((?:@[^/]+\/)?[^/@][^/]*)\/(.+)$/.exec(ref);
  if (!m) throw new Error(`'${ref}' is not an npm reference: write npm:<package>/<file> (npm:@scope/package/<file> for a scoped package)`);
  const [, pkg, file] = m as unknown as [string, string, string];
  const looked: string[] = [];
  const starts: [string, string][] = [
    [styleDir, "the style's folder"],
    [INSTALL_DIR, "tilegraph's installation"],
    [cwd, 'the working directory'],
  ];
  for (const [start, where] of starts) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      const pkgDir = path.join(dir, 'node_modules', pkg);
      if (isDir(pkgDir)) {
        const p = path.resolve(pkgDir, file);
        const rel = path.relative(pkgDir, p);
        if (rel.startsWith('..') || path.isAbsolute(rel)) throw new Error(`'${ref}' leaves the package '${pkg}'`);
        return p;
      }
      if (path.dirname(dir) === dir) break;
    }
    looked.push(where);
  }
  throw Object.assign(
    new Error(
      `cannot read '${ref}': no package '${pkg}' in a node_modules folder from ${looked.slice(0, -1).join(', ')} or ${looked.at(-1)} upwards (npm install ${pkg})`,
    ),
    { code: 'ENOPKG' },
  );
}
