// A minimal PMTiles v3 writer for tests (spec: github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md):
// one root directory, no leaf directories, uncompressed directory and metadata.
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  data: Uint8Array;
}

export interface ArchiveOptions {
  /** 1 = MVT, 2 = PNG, 3 = JPEG, 4 = WebP. */
  tileType: number;
  /** Gzip the tile data (tile compression 2) or not (1). */
  gzipTiles?: boolean;
  /**
   * Compress tiles, directory and metadata with this PMTiles code (2 gzip, 3 brotli, 4 zstd) and
   * compressor; overrides gzipTiles.
   */
  compression?: { code: number; compress(b: Uint8Array): Uint8Array };
  metadata?: Record<string, unknown>;
  bounds?: [number, number, number, number];
}

function varint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

export function writePmtiles(tiles: ArchiveTile[], o: ArchiveOptions): Uint8Array {
  const entries = tiles
    .map((t) => ({
      id: zxyToTileId(t.z, t.x, t.y),
      data: o.compression ? o.compression.compress(t.data) : o.gzipTiles ? new Uint8Array(gzipSync(t.data)) : t.data,
    }))
    .sort((a, b) => a.id - b.id);
  let offset = 0;
  const placed = entries.map((e) => {
    const p = { ...e, offset, length: e.data.length };
    offset += e.data.length;
    return p;
  });
  let dir: number[] = [];
  varint(dir, placed.length);
  let last = 0;
  for (const e of placed) {
    varint(dir, e.id - last);
    last = e.id;
  }
  for (const _ of placed) varint(dir, 1); // run length
  for (const e of placed) varint(dir, e.length);
  placed.forEach((e, i) => varint(dir, i > 0 && e.offset === placed[i - 1]!.offset + placed[i - 1]!.length ? 0 : e.offset + 1));
  let meta: Uint8Array = new TextEncoder().encode(JSON.stringify(o.metadata ?? {}));
  if (o.compression) {
    dir = Array.from(o.compression.compress(Uint8Array.from(dir)));
    meta = o.compression.compress(meta);
  }
  const HEADER = 127;
  const rootOffset = HEADER;
  const metaOffset = rootOffset + dir.length;
  const dataOffset = metaOffset + meta.length;
  const total = dataOffset + offset;
  const buf = new Uint8Array(total);
  const dv = new DataView(buf.buffer);
  buf.set(new TextEncoder().encode('PMTiles'), 0);
  buf[7] = 3;
  const u64 = (at: number, v: number) => {
    dv.setUint32(at, v % 2 ** 32, true);
    dv.setUint32(at + 4, Math.floor(v / 2 ** 32), true);
  };
  u64(8, rootOffset);
  u64(16, dir.length);
  u64(24, metaOffset);
  u64(32, meta.length);
  u64(40, dataOffset); // no leaf directories
  u64(48, 0);
  u64(56, dataOffset);
  u64(64, offset);
  u64(72, placed.length);
  u64(80, placed.length);
  u64(88, placed.length);
  buf[96] = 1; // clustered
  buf[97] = o.compression?.code ?? 1; // internal compression: none unless asked
  buf[98] = o.compression?.code ?? (o.gzipTiles ? 2 : 1);
  buf[99] = o.tileType;
  const zs = tiles.map((t) => t.z);
  buf[100] = Math.min(...zs);
  buf[101] = Math.max(...zs);
  const [w, s, e, n] = o.bounds ?? [-180, -85, 180, 85];
  dv.setInt32(102, Math.round(w * 1e7), true);
  dv.setInt32(106, Math.round(s * 1e7), true);
  dv.setInt32(110, Math.round(e * 1e7), true);
  dv.setInt32(114, Math.round(n * 1e7), true);
  buf[118] = Math.min(...zs);
  dv.setInt32(119, 0, true);
  dv.setInt32(123, 0, true);
  buf.set(dir, rootOffset);
  buf.set(meta, metaOffset);
  for (const e of placed) buf.set(e.data, dataOffset + e.offset);
  return buf;
}
