// Tile pieces: the features of one decoded source tile as that tile holds them (its buffer
// included, never clipped to a canvas), in Mercator units, each owned by the tile's square.
//
// Ops that measure a feature (its centroid) cannot see whole features in a tiled source, and the
// groups a canvas samples are clipped to the canvas: measured on those, a feature cut by one
// canvas's edge has another centroid in the neighbouring canvas, and tiles do not continue each
// other. A piece depends only on its source tile, so every canvas gets the same pieces; and a
// feature that lies in a tile's buffer too (a building on the tile edge, a point in the buffer) is
// counted once, by the tile whose square holds its measure. A feature larger than the buffer that
// crosses a tile edge is measured per tile (one centroid per piece), the same in every canvas.
import { emptyBox, growBox } from '../geometry/measure.js';
import type { WholeFeature } from '../geometry/whole.js';
import type { DecodedLayer } from './sample.js';

/** The pieces of one decoded layer of source tile z/x/y (x wrapped into [0, 2^z)). */
export function tilePieces(layer: DecodedLayer, z: number, x: number, y: number): WholeFeature[] {
  const n = 2 ** z;
  const s = 1 / (layer.extent * n);
  const ox = x / n;
  const oy = y / n;
  const owner: [number, number, number, number] = [ox, oy, (x + 1) / n, (y + 1) / n];
  const out: WholeFeature[] = [];
  for (const f of layer.features) {
    const box = emptyBox();
    const part = (p: number): Float64Array => {
      const a = f.parts[p]!;
      const b = f.parts[p + 1]!;
      const r = new Float64Array((b - a) * 2);
      for (let i = a, o = 0; i < b; i++) {
        r[o++] = ox + f.coords[i * 2]! * s;
        r[o++] = oy + f.coords[i * 2 + 1]! * s;
      }
      growBox(box, r);
      return r;
    };
    const w: WholeFeature = { properties: f.properties, polygons: [], lines: [], points: new Float64Array(0), box, owner };
    if (f.id !== undefined) w.id = f.id;
    const parts = f.parts.length - 1;
    if (f.type === 1) {
      const pts: Float64Array[] = [];
      for (let p = 0; p < parts; p++) pts.push(part(p));
      w.points = pts.length === 1 ? pts[0]! : Float64Array.from(pts.flatMap((q) => [...q]));
    } else if (f.type === 2) {
      for (let p = 0; p < parts; p++) if (f.parts[p + 1]! - f.parts[p]! >= 2) w.lines.push(part(p));
    } else {
      let current: Float64Array[] | undefined;
      for (let p = 0; p < parts; p++) {
        const exterior = f.exterior ? f.exterior[p] === 1 : p === 0;
        if (f.parts[p + 1]! - f.parts[p]! < 3) {
          if (exterior) current = undefined;
          continue;
        }
        if (exterior) w.polygons.push((current = [part(p)]));
        else current?.push(part(p));
      }
    }
    if (box[0] <= box[2]) out.push(w);
  }
  return out;
}

/** Estimated memory of pieces (for the byte-bounded tile cache). */
export function piecesBytes(pieces: readonly WholeFeature[]): number {
  let b = 64;
  for (const w of pieces) {
    b += 256 + w.points.byteLength;
    for (const l of w.lines) b += 64 + l.byteLength;
    for (const poly of w.polygons) for (const r of poly) b += 64 + r.byteLength;
  }
  return b;
}
