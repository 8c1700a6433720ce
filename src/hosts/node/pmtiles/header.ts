// The fixed 127-byte PMTiles v3 header (spec §3).
import type { Header } from 'pmtiles';

export const HEADER_BYTES = 127;

export function serializeHeader(h: Omit<Header, 'etag'>): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.write('PMTiles', 0, 'ascii');
  b.writeUInt8(3, 7);
  const u64 = (off: number, v: number | undefined) => b.writeBigUInt64LE(BigInt(v ?? 0), off);
  u64(8, h.rootDirectoryOffset);
  u64(16, h.rootDirectoryLength);
  u64(24, h.jsonMetadataOffset);
  u64(32, h.jsonMetadataLength);
  u64(40, h.leafDirectoryOffset);
  u64(48, h.leafDirectoryLength);
  u64(56, h.tileDataOffset);
  u64(64, h.tileDataLength);
  u64(72, h.numAddressedTiles);
  u64(80, h.numTileEntries);
  u64(88, h.numTileContents);
  b.writeUInt8(h.clustered ? 1 : 0, 96);
  b.writeUInt8(h.internalCompression, 97);
  b.writeUInt8(h.tileCompression, 98);
  b.writeUInt8(h.tileType, 99);
  b.writeUInt8(h.minZoom, 100);
  b.writeUInt8(h.maxZoom, 101);
  const e7 = (off: number, deg: number) => b.writeInt32LE(Math.round(deg * 1e7), off);
  e7(102, h.minLon);
  e7(106, h.minLat);
  e7(110, h.maxLon);
  e7(114, h.maxLat);
  b.writeUInt8(h.centerZoom, 118);
  e7(119, h.centerLon);
  e7(123, h.centerLat);
  return b;
}
