// Gzip detection and inflation without zlib: DecompressionStream exists in Node >= 18 and browsers.

/** Gzip members start with the magic bytes 1f 8b. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Inflate gzip bytes; rejects on a truncated or corrupt stream. */
export async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The bytes themselves, or inflated when they are gzip. */
export function maybeGunzip(bytes: Uint8Array): Promise<Uint8Array> {
  return isGzip(bytes) ? gunzip(bytes) : Promise.resolve(bytes);
}
