// Width and height of a PNG or WebP from its first bytes, so a source image can be refused before
// a decoder allocates its pixels (a 16000 x 16000 PNG is 1 GB decoded, 100 KB encoded).

/** The image's size, or undefined when the bytes are neither PNG nor WebP (the decoder decides). */
export function imageSize(b: Uint8Array): { width: number; height: number } | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  // PNG: signature, then the IHDR chunk: width and height as big-endian u32 at bytes 16 and 20.
  if (b.length >= 24 && v.getUint32(0) === 0x89504e47 && v.getUint32(4) === 0x0d0a1a0a && v.getUint32(12) === 0x49484452) {
    return { width: v.getUint32(16), height: v.getUint32(20) };
  }
  // WebP: RIFF....WEBP then a VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk.
  if (b.length >= 30 && v.getUint32(0) === 0x52494646 && v.getUint32(8) === 0x57454250) {
    const chunk = String.fromCharCode(b[12]!, b[13]!, b[14]!, b[15]!);
    if (chunk === 'VP8 ') return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = v.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') {
      const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
      return { width: u24(24) + 1, height: u24(27) + 1 };
    }
  }
  return undefined;
}
