// GeoJSON whose rings jump across the antimeridian (179.9 -> -179.9, as TopoJSON from world-atlas
// and many exports write them) would draw as bands across the whole map in a planar renderer.
// Unwrap each ring and line so consecutive longitudes never differ by more than 180 degrees;
// geojson-vt then wraps the parts beyond +-180 onto the other side of the world. A ring that
// circles a pole (Antarctica) no longer closes when unwrapped: it is closed through that pole.
// Only rings and lines that really cross are unwrapped: one with a jump of more than 270 degrees
// (less than 90 the short way round). RFC 7946 edges are straight in longitude, so a wide polygon
// with an edge of 220 degrees (-120 to 100) is drawn as written, not inverted.
import type { GeoJSON, Geometry, Position } from 'geojson';

/** A jump this large between consecutive longitudes is a crossing written the short way round. */
const CROSSING_SPAN = 270;

/** Does the ring or line jump across the antimeridian somewhere? */
function crossesAntimeridian(coords: Position[]): boolean {
  for (let i = 1; i < coords.length; i++) if (Math.abs(coords[i]![0]! - coords[i - 1]![0]!) > CROSSING_SPAN) return true;
  return false;
}

function unwrap(coords: Position[]): Position[] {
  if (!crossesAntimeridian(coords)) return coords;
  const out: Position[] = [];
  let shift = 0;
  for (let i = 0; i < coords.length; i++) {
    const p = coords[i]!;
    if (i > 0) {
      const d = p[0]! + shift - out[i - 1]![0]!;
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    out.push(shift ? [p[0]! + shift, ...p.slice(1)] : p);
  }
  return out;
}

function unwrapRing(ring: Position[]): Position[] {
  if (!crossesAntimeridian(ring)) return ring;
  const u = unwrap(ring);
  if (u.length < 2) return u;
  const first = u[0]!;
  const last = u[u.length - 1]!;
  const gap = last[0]! - first[0]!;
  if (Math.abs(gap) < 180) return u;
  // Circles a pole: close it along the pole on the side the ring lies on.
  const meanLat = u.reduce((s, p) => s + p[1]!, 0) / u.length;
  const pole = meanLat < 0 ? -90 : 90;
  return [...u, [last[0]!, pole], [first[0]!, pole], first];
}

function fixGeometry(g: Geometry | null): Geometry | null {
  if (!g) return g;
  switch (g.type) {
    case 'LineString':
      return { ...g, coordinates: unwrap(g.coordinates) };
    case 'MultiLineString':
      return { ...g, coordinates: g.coordinates.map(unwrap) };
    case 'Polygon':
      return { ...g, coordinates: g.coordinates.map(unwrapRing) };
    case 'MultiPolygon':
      return { ...g, coordinates: g.coordinates.map((p) => p.map(unwrapRing)) };
    case 'GeometryCollection':
      return { ...g, geometries: g.geometries.map((x) => fixGeometry(x)!) };
    default:
      return g;
  }
}

export function unwrapAntimeridian(doc: GeoJSON): GeoJSON {
  switch (doc.type) {
    case 'FeatureCollection':
      return { ...doc, features: doc.features.map((f) => ({ ...f, geometry: fixGeometry(f.geometry)! })) };
    case 'Feature':
      return { ...doc, geometry: fixGeometry(doc.geometry)! };
    default:
      return fixGeometry(doc) as GeoJSON;
  }
}
