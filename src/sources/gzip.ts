// Decompression without zlib, bounded: gzip through DecompressionStream (Node >= 18 and browsers),
// zstd through fzstd (plain JS), brotli through the host (Node's zlib) when it offers one. Every
// inflation stops at a byte cap: a 4 MB gzip bomb must not become 1 GB of memory.
import { Decompress as ZstdStream } from 'fzstd';
import { formatBytes } from '../limits.js';
import { concat } from '../util/concat.js';
import { readAtMost } from '../util/read-stream.js';

/** Codecs of PMTiles archives (internal and tile compression) and of gzip-compressed MVT tiles. */
export type Codec = 'gzip' | 'br' | 'zstd';

/** A host's decompressor for what the core cannot do in plain JS (brotli); rejects past maxBytes. */
export type HostDecompress = (bytes: Uint8Array, codec: 'br', maxBytes: number) => Promise<Uint8Array>;

/** Gzip members start with the magic bytes 1f 8b. */
function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

class InflateLimitError extends Error {
  override name = 'InflateLimitError';
  constructor(codec: string, maxBytes: number) {
    super(`${codec} data inflates to more than ${formatBytes(maxBytes)} (the limit); refusing a decompression bomb`);
  }
}

/** Concatenate chunks (one chunk is returned as it is). */
function join(chunks: Uint8Array[]): Uint8Array {
  return chunks.length === 1 ? chunks[0]! : concat(chunks, (n) => new Uint8Array(n));
}

/** Inflate gzip bytes; rejects on a truncated or corrupt stream, and as soon as the output passes maxBytes. */
export async function gunzip(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  const chunks = await readAtMost(stream, maxBytes, () => {
    throw new InflateLimitError('gzip', maxBytes);
  });
  return join(chunks);
}

/** Inflate zstd bytes (fzstd, streaming so that the cap holds before memory is spent). */
export function unzstd(bytes: Uint8Array, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let ended = false;
  const s = new ZstdStream((chunk, final) => {
    total += chunk.length;
    if (total > maxBytes) throw new InflateLimitError('zstd', maxBytes);
    chunks.push(chunk);
    if (final) ended = true;
  });
  // Feed in slices: each push decodes what it can, so a bomb stops at the first slice past the cap.
  const step = 64 * 1024;
  for (let i = 0; i < bytes.length; i += step) s.push(bytes.subarray(i, Math.min(bytes.length, i + step)), i + step >= bytes.length);
  if (!ended) throw new Error('the zstd stream is truncated');
  return join(chunks);
}

/** Inflate `bytes` with `codec`, never past maxBytes. */
export async function inflate(bytes: Uint8Array, codec: Codec, maxBytes: number, host?: HostDecompress): Promise<Uint8Array> {
  switch (codec) {
    case 'gzip':
      return gunzip(bytes, maxBytes);
    case 'zstd':
      return unzstd(bytes, maxBytes);
    case 'br':
      if (!host) throw new Error('brotli-compressed data needs a host decompressor (the Node host has one; this host does not)');
      return host(bytes, 'br', maxBytes);
  }
}

/** The bytes themselves, or inflated (at most maxBytes) when they are gzip. */
export function maybeGunzip(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  return isGzip(bytes) ? gunzip(bytes, maxBytes) : Promise.resolve(bytes);
}
