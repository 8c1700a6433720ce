// The PNG encoder's deflate: libdeflate through our addon (native/deflate.c, built by
// scripts/build-native.mjs into dist/native/deflate.node), else node:zlib. On the bundled
// examples' tiles libdeflate costs about half of zlib's CPU for ~4% fewer bytes (docs/server.md,
// PNG encoding). Both write a zlib stream (RFC 1950) of the same bytes in; the files differ, the
// pixels a decoder reads from them do not.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

interface Addon {
  compress(input: Uint8Array, level: number, output: Uint8Array): number;
  bound(length: number, level: number): number;
  version: string;
}

/** The deflater in use, for the server's start-up line and GET /metrics. */
export interface DeflateInfo {
  /** `libdeflate 1.25` or `node:zlib`. */
  name: string;
  /** Why node:zlib: the addon is missing, failed to load, or was turned off. */
  reason?: string;
}

/** The addon's file (the same path from src/hosts/node under Jest and from dist/hosts/node). */
export const DEFLATE_ADDON = fileURLToPath(new URL('../../../dist/native/deflate.node', import.meta.url));

let addon: Addon | null | undefined;
let loadError = '';
let forceZlib = false;

function loadAddon(): Addon | null {
  if (addon !== undefined) return addon;
  addon = null;
  if (process.env.TILEGRAPH_DEFLATE === 'zlib') loadError = 'TILEGRAPH_DEFLATE=zlib';
  else {
    try {
      addon = createRequire(import.meta.url)(DEFLATE_ADDON) as Addon;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      loadError =
        err.code === 'MODULE_NOT_FOUND'
          ? 'the libdeflate addon is not built (npm run build needs a C compiler)'
          : `the libdeflate addon did not load: ${err.message.split('\n')[0]}`;
    }
  }
  return addon;
}

function active(): Addon | null {
  return forceZlib ? null : loadAddon();
}

/** Whether deflate() runs libdeflate here. */
export function usingLibdeflate(): boolean {
  return active() !== null;
}

/** Which deflater this thread uses (every thread loads the same file). */
export function deflateInfo(): DeflateInfo {
  const a = active();
  return a ? { name: `libdeflate ${a.version}` } : { name: 'node:zlib', reason: forceZlib ? 'setZlibDeflate(true)' : loadError };
}

/** Tests: deflate with node:zlib in this thread even where the addon loads (true), or as loaded (false). */
export function setZlibDeflate(on: boolean): void {
  forceZlib = on;
}

/**
 * zlib's memLevel: 9 (zlib's default is 8) doubles the match finder's hash table (64 Ki heads,
 * +128 KiB a deflate), so fewer collisions walk its chains: on the bundled examples' truecolour
 * tiles 7-13% less deflate CPU for the same bytes within 0.3% (docs/server.md, PNG encoding).
 */
export const ZLIB_MEM_LEVEL = 9;

/**
 * The output room kept between calls: a 1024 x 1024 RGBA tile's bound (~4.2 MB) fits; a larger
 * one gets room of its own, dropped after the call.
 */
const KEEP_ROOM = 5 << 20;
let room: Uint8Array | undefined;

/**
 * `data` as a zlib stream at `level` (0-9: zlib's; libdeflate takes the same number, its 0-9
 * being alike in effort; its 10-12, ~9 MB a compressor, are not offered). The result may be a view
 * of memory the next call reuses: copy it before deflating again. libdeflate's memory: one
 * compressor per level used, per thread (level 1 ~0.2 MB, 2-9 ~0.65 MB each: 1.5 MB for the
 * default levels 1, 4 and 5), and the output room above.
 */
export function deflate(data: Uint8Array, level: number): Uint8Array {
  if (!Number.isInteger(level) || level < 0 || level > 9) throw new RangeError(`deflate level must be an integer 0-9, not ${level}`);
  const a = active();
  if (!a) return zlib.deflateSync(data, { level, memLevel: ZLIB_MEM_LEVEL });
  const need = a.bound(data.length, level);
  const out = room && room.length >= need ? room : new Uint8Array(need);
  const n = a.compress(data, level, out);
  if (n === 0) throw new Error(`libdeflate: ${data.length} bytes did not fit the bound ${need}`);
  room = out.length <= KEEP_ROOM ? out : undefined;
  return out.subarray(0, n);
}
