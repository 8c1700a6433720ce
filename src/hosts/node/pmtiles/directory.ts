// PMTiles directories (spec §4): entries serialised column by column and gzipped; a root directory
// of leaf pointers when the entries do not fit in the first 16 KiB.
import { gzipSync } from 'node:zlib';
import type { Entry } from 'pmtiles';
import { HEADER_BYTES } from './header.js';
import { pushVarint } from './varint.js';

/** The header and the root directory must fit in the first 16 KiB (spec §2). */
const ROOT_BUDGET = 16384 - HEADER_BYTES;

/** Serialize and gzip one directory. Entries are sorted by tileId. */
export function serializeDirectory(entries: readonly Entry[]): Buffer {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let last = 0;
  for (const e of entries) {
    pushVarint(out, e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pushVarint(out, e.runLength);
  for (const e of entries) pushVarint(out, e.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const prev = entries[i - 1];
    // 0 means "right after the previous entry"; otherwise offset + 1.
    pushVarint(out, i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1);
  }
  return gzipSync(Buffer.from(out));
}

/** Root directory, plus leaf directories when the root alone would not fit in its budget. */
export function buildDirectories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer } {
  const root = serializeDirectory(entries);
  if (root.length <= ROOT_BUDGET) return { root, leaves: Buffer.alloc(0) };
  // As the reference writers do: grow the leaf size until the root of leaf pointers fits.
  for (let leafSize = 4096; ; leafSize = Math.ceil(leafSize * 1.2)) {
    const rootEntries: Entry[] = [];
    const parts: Buffer[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = serializeDirectory(entries.slice(i, i + leafSize));
      rootEntries.push({ tileId: entries[i]!.tileId, offset, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      offset += leaf.length;
    }
    const r = serializeDirectory(rootEntries);
    if (r.length <= ROOT_BUDGET) return { root: r, leaves: Buffer.concat(parts) };
  }
}
