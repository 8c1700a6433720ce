// Scaffolding of the op tests that draw GeoJSON placed by window pixels (stamp, stroke,
// fill-pattern): a 2 x 2 tile window at z8, features given in its pixels, sprites encoded as PNG
// by libvips (sharp), and a loader serving them; and the brush tests' stroked line.
import sharp from 'sharp';
import type { Window } from '../../src/index.js';
import { decodeImage } from '../../src/hosts/node/image.js';
import type { Loader } from '../../src/sources/types.js';

/** Web Mercator: world pixel (x, y) at zoom z and tile size ts as [lon, lat] (the spherical formula written out, not ours). */
export function lonLat(z: number, ts: number, x: number, y: number): [number, number] {
  const size = ts * 2 ** z;
  return [(x / size) * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI];
}

export const Z = 8;
export const TS = 64;
/** Tiles (100, 90) to (101, 91) of z8 at 64 px. */
export const WIN: Window = { z: Z, x0: 100 * TS, y0: 90 * TS, width: 2 * TS, height: 2 * TS, tileSize: TS };

/** [lon, lat] of WIN's pixel (x, y). */
const at = (x: number, y: number) => lonLat(Z, TS, WIN.x0 + x, WIN.y0 + y);

/** Points at WIN pixels [x, y], each with its properties (else none). */
export function points(pts: number[][], props: Record<string, unknown>[] = []): object {
  return {
    type: 'FeatureCollection',
    features: pts.map(([x, y], i) => ({ type: 'Feature', properties: props[i] ?? {}, geometry: { type: 'Point', coordinates: at(x!, y!) } })),
  };
}

/** Lines through WIN pixels [x0, y0, x1, y1, ...], ids 1, 2, ..., each with its properties (else { i }). */
export function lines(ls: number[][], props: Record<string, unknown>[] = []): object {
  return {
    type: 'FeatureCollection',
    features: ls.map((l, i) => {
      const coords: [number, number][] = [];
      for (let k = 0; k < l.length; k += 2) coords.push(at(l[k]!, l[k + 1]!));
      return { type: 'Feature', id: i + 1, properties: props[i] ?? { i }, geometry: { type: 'LineString', coordinates: coords } };
    }),
  };
}

/** A polygon from WIN pixel corners [x0, y0, x1, y1]. */
export function box(x0: number, y0: number, x1: number, y1: number): object {
  const c = [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
    [x0, y0],
  ].map(([x, y]) => at(x!, y!));
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [c] } }] };
}

/** PNG bytes of w x h straight RGBA8 pixels, encoded by libvips. */
export async function png(w: number, h: number, px: number[]): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(Buffer.from(Uint8Array.from(px)), { raw: { width: w, height: h, channels: 4 } })
      .png()
      .toBuffer(),
  );
}

/** A loader serving these files by ref (ENOENT for others), decoding images as the Node host does. */
export function loaderOf(files: Record<string, Uint8Array>): Loader {
  return {
    load: async (ref) => {
      const f = files[ref];
      if (!f) throw new Error(`ENOENT: '${ref}'`);
      return f;
    },
    decodeImage,
  };
}

/** A style stroking one line along the equator from -10° to 10° (features `f`) with the brush node `b`, `extra` nodes beside. */
export function strokedLine(brush: Record<string, unknown>, extra: Record<string, unknown> = {}): object {
  const line = {
    type: 'LineString',
    coordinates: [
      [-10, 0],
      [10, 0],
    ],
  };
  return {
    output: 'out',
    sources: { l: { type: 'geojson', data: line } },
    nodes: { f: { op: 'features' }, ...extra, b: brush, out: { op: 'stroke', features: '@f', brush: '@b' } },
  };
}
