// Shared helpers of the source tests: fixture paths (skipped loudly when ../shared is absent), an
// in-memory loader, and geometry measures.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { TileCache } from '../../src/sources/cache.js';
import type { Loader, SourceContext } from '../../src/sources/types.js';
import { ringArea } from '../../src/geometry/clip.js';
import type { FeatureGroup } from '../../src/types.js';
import { decodeImage } from '../../src/hosts/node/image.js';
import sharp from 'sharp';

// Tests on the fixtures are fixturesTest (skipped, loudly, without ../shared/fixtures).
export { FIXTURES, fixturesPresent } from '../helpers/fixtures.js';

/** Directory of the real-world MVT blocks shipped in @mapbox/mvt-fixtures. */
export const MVT_FIXTURES = path.join(path.dirname(createRequire(import.meta.url).resolve('@mapbox/mvt-fixtures/package.json')), 'real-world');

/** The Chicago block of the MVT fixtures (z13 tiles, with its bounds) as a style's source. */
export const chicagoSource = () => ({
  type: 'mvt',
  tiles: [path.join(MVT_FIXTURES, 'chicago/{z}-{x}-{y}.mvt')],
  minzoom: 13,
  maxzoom: 13,
  bounds: [-87.67089, 41.836829, -87.583009, 41.902276],
});

/** A loader over a map of refs to bytes; counts loads. Missing refs reject like a missing file. */
export class MemoryLoader implements Loader {
  readonly files = new Map<string, Uint8Array>();
  loads = 0;
  readonly decodeImage = decodeImage;
  constructor(files: Record<string, Uint8Array> = {}) {
    for (const [k, v] of Object.entries(files)) this.files.set(k, v);
  }
  async load(ref: string, range?: { offset: number; length: number }): Promise<Uint8Array> {
    this.loads++;
    const b = this.files.get(ref);
    if (!b) throw new Error(`ENOENT: no such file '${ref}'`);
    return range ? b.subarray(range.offset, range.offset + range.length) : b;
  }
}

export function ctxOf(loader?: Loader, cache = new TileCache()): SourceContext {
  return { loader, decodeImage: decodeImage, cache, cachePrefix: '' };
}

export function readBytes(p: string): Uint8Array {
  return new Uint8Array(readFileSync(p));
}

/** Total signed area of every polygon (exteriors minus holes), in square world pixels. */
export function polygonArea(groups: FeatureGroup[]): number {
  let a = 0;
  for (const g of groups) for (const poly of g.polygons) for (const ring of poly) a += ringArea(ring);
  return a;
}

export function lineLength(groups: FeatureGroup[]): number {
  let len = 0;
  for (const g of groups) for (const l of g.lines) for (let i = 2; i < l.length; i += 2) len += Math.hypot(l[i]! - l[i - 2]!, l[i + 1]! - l[i - 1]!);
  return len;
}

export function pointCount(groups: FeatureGroup[]): number {
  return groups.reduce((n, g) => n + g.points.length / 2, 0);
}

/** A PNG of one colour (straight RGBA 0..255). */
export async function solidPng(size: number, rgba: [number, number, number, number]): Promise<Uint8Array> {
  const raw = new Uint8Array(size * size * 4);
  for (let i = 0; i < raw.length; i += 4) raw.set(rgba, i);
  return new Uint8Array(
    await sharp(raw, { raw: { width: size, height: size, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** A zstd frame of raw blocks (RFC 8878 §3.1.1): a valid stream any decoder must read. */
export function zstdRaw(data: Uint8Array): Uint8Array {
  const out: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50]; // magic; no checksum, window 1 MiB
  const max = 128 * 1024;
  for (let i = 0; i === 0 || i < data.length; i += max) {
    const n = Math.min(max, data.length - i);
    const last = i + max >= data.length ? 1 : 0;
    const h = last | (0 << 1) | (n << 3); // raw block
    out.push(h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff);
    for (let k = i; k < i + n; k++) out.push(data[k]!);
  }
  return Uint8Array.from(out);
}
