// Font containers to the plain sfnt (TrueType / OpenType) bytes HarfBuzz reads. WOFF 1.0 (W3C
// Recommendation 2012: a table directory whose tables are zlib streams) is unpacked here with the
// platform's DecompressionStream; WOFF 2.0 (Brotli plus transformed glyf/loca tables) through
// wawoff2 (Google's woff2 decoder compiled to WebAssembly), loaded only when a WOFF2 font is met.
// Every inflation is bounded (MAX_FONT_BYTES): a font is an asset, not a way to fill memory.
import { concat } from '../../util/concat.js';
import { readAtMost } from '../../util/read-stream.js';

/** Largest font accepted, before and after decompression (Noto CJK is ~20 MB). */
export const MAX_FONT_BYTES = 48 * 1024 * 1024;

export type FontFormat = 'ttf' | 'otf' | 'woff' | 'woff2' | 'collection';

/** The container of font bytes from their signature, or undefined when they are no font. */
export function fontFormat(b: Uint8Array): FontFormat | undefined {
  if (b.length < 12) return undefined;
  const tag = String.fromCharCode(b[0]!, b[1]!, b[2]!, b[3]!);
  if (tag === 'wOFF') return 'woff';
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'OTTO') return 'otf';
  if (tag === 'ttcf') return 'collection';
  if (tag === 'true' || (b[0] === 0 && b[1] === 1 && b[2] === 0 && b[3] === 0)) return 'ttf';
  return undefined;
}

/** The sfnt bytes of a font in any supported container; rejects with the reason otherwise. */
export async function toSfnt(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.length > MAX_FONT_BYTES) throw new Error(`the font is ${bytes.length} bytes; fonts are at most ${MAX_FONT_BYTES} bytes`);
  switch (fontFormat(bytes)) {
    case 'ttf':
    case 'otf':
    case 'collection':
      return bytes;
    case 'woff':
      return unwoff(bytes);
    case 'woff2':
      return unwoff2(bytes);
    default:
      throw new Error('not a font (TTF, OTF, WOFF or WOFF2)');
  }
}

/** zlib-wrapped deflate (RFC 1950), inflated to exactly `length` bytes. */
async function inflateZlib(data: Uint8Array, length: number): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate'));
  const chunks = await readAtMost(stream, length, () => {
    throw new Error('a WOFF table inflates past its declared length');
  });
  const out = concat(chunks, (n) => new Uint8Array(n));
  if (out.length !== length) throw new Error('a WOFF table inflates short of its declared length');
  return out;
}

/** WOFF 1.0 to sfnt: the offset table and table records rebuilt, each table inflated, 4-byte aligned. */
export async function unwoff(b: Uint8Array): Promise<Uint8Array> {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const flavor = v.getUint32(4);
  const numTables = v.getUint16(12);
  const totalSfntSize = v.getUint32(16);
  if (44 + numTables * 20 > b.length) throw new Error('a truncated WOFF table directory');
  if (totalSfntSize > MAX_FONT_BYTES) throw new Error(`the font unpacks to ${totalSfntSize} bytes; fonts are at most ${MAX_FONT_BYTES} bytes`);
  const entries: { tag: number; offset: number; comp: number; orig: number; sum: number }[] = [];
  for (let i = 0; i < numTables; i++) {
    const e = 44 + i * 20;
    const entry = { tag: v.getUint32(e), offset: v.getUint32(e + 4), comp: v.getUint32(e + 8), orig: v.getUint32(e + 12), sum: v.getUint32(e + 16) };
    if (entry.offset + entry.comp > b.length || entry.comp > entry.orig) throw new Error('a WOFF table lies outside the file');
    entries.push(entry);
  }
  const headerBytes = 12 + numTables * 16;
  let size = headerBytes;
  for (const e of entries) size += (e.orig + 3) & ~3;
  if (size > MAX_FONT_BYTES) throw new Error(`the font unpacks to ${size} bytes; fonts are at most ${MAX_FONT_BYTES} bytes`);
  const out = new Uint8Array(size);
  const o = new DataView(out.buffer);
  // The offset table's binary-search fields (OpenType spec, "Organization of an OpenType Font").
  let p2 = 1;
  let log = 0;
  while (p2 * 2 <= numTables) {
    p2 *= 2;
    log++;
  }
  o.setUint32(0, flavor);
  o.setUint16(4, numTables);
  o.setUint16(6, p2 * 16);
  o.setUint16(8, log);
  o.setUint16(10, numTables * 16 - p2 * 16);
  let at = headerBytes;
  for (let i = 0; i < numTables; i++) {
    const e = entries[i]!;
    const data = b.subarray(e.offset, e.offset + e.comp);
    out.set(e.comp < e.orig ? await inflateZlib(data, e.orig) : data, at);
    const r = 12 + i * 16;
    o.setUint32(r, e.tag);
    o.setUint32(r + 4, e.sum);
    o.setUint32(r + 8, at);
    o.setUint32(r + 12, e.orig);
    at += (e.orig + 3) & ~3;
  }
  return out;
}

/** WOFF 2.0 to sfnt through wawoff2 (loaded on first use). */
export async function unwoff2(b: Uint8Array): Promise<Uint8Array> {
  if (b.length >= 20) {
    const total = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(16);
    if (total > MAX_FONT_BYTES) throw new Error(`the font unpacks to ${total} bytes; fonts are at most ${MAX_FONT_BYTES} bytes`);
  }
  const mod = (await import('wawoff2/decompress.js')) as { default: (b: Uint8Array) => Promise<Uint8Array> };
  const out = await mod.default(b);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
