// How a geojson source reads an edge between longitudes far apart (its `antimeridian` field).
//
// 'as-written' (GeoJSON's default): RFC 7946 edges are straight lines in longitude/latitude, and
// producers cut features at the antimeridian (section 3.1.9), so an edge from -180 to 180 runs
// across the whole world: a world mask, a band 359.98 degrees wide, a rectangle 281 degrees wide
// are drawn as written.
//
// 'short-way' (TopoJSON's default): the geometry is spherical (world-atlas, us-atlas: d3 draws an
// edge as the short great-circle arc), so an edge whose ends are more than 180 degrees of
// longitude apart crosses the antimeridian (179.9 then -179.9). Each such ring and line is
// unwrapped so consecutive longitudes never differ by more than 180 degrees; geojson-vt then
// wraps the parts beyond +-180 onto the other side of the world. A ring that circles a pole
// (Antarctica) no longer closes when unwrapped: it is closed through that pole.
import type { GeoJSON, Geometry, Position } from 'geojson';

/** A jump this large between consecutive longitudes is a crossing written the short way round. */
const CROSSING_SPAN = 180;

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

/** The document with every edge of more than 180 degrees of longitude taken the short way ('short-way'). */
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
