// Positions of a GeoJSON document checked before tiling: numbers, finite, longitudes within two
// worlds and latitudes within the poles. A longitude of -3.8e138 would otherwise spread a whole
// feature over 10^136 copies of the world (a crash, not an error).
import type { GeoJSON, Geometry } from 'geojson';

/** Longitudes beyond +-180 occur in real data (0..360 exports, rings unwrapped across the antimeridian); beyond this they are corrupt. */
const MAX_LNG = 360;

/** Why the document's positions are unusable, or undefined when they are fine. */
export function positionProblem(doc: GeoJSON): string | undefined {
  const geoms: { g: Geometry | null | undefined; where: string }[] = [];
  if (doc.type === 'FeatureCollection') (doc.features ?? []).forEach((f, i) => geoms.push({ g: f?.geometry, where: `feature ${i}` }));
  else if (doc.type === 'Feature') geoms.push({ g: doc.geometry, where: 'the feature' });
  else geoms.push({ g: doc as Geometry, where: 'the geometry' });
  while (geoms.length) {
    const { g, where } = geoms.pop()!;
    if (!g) continue;
    if (g.type === 'GeometryCollection') {
      for (const c of g.geometries ?? []) geoms.push({ g: c, where });
      continue;
    }
    // Positions sit at the leaves of nested arrays (depth 1 to 3 by type); walk without recursion.
    const stack: unknown[] = [(g as { coordinates?: unknown }).coordinates];
    while (stack.length) {
      const v = stack.pop();
      if (!Array.isArray(v)) return `${where}: coordinates must be arrays of positions, found ${JSON.stringify(v)?.slice(0, 40)}`;
      if (v.length && !Array.isArray(v[0])) {
        const [lng, lat] = v as unknown[];
        if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
          return `${where}: position ${JSON.stringify(v).slice(0, 60)} is not two finite numbers`;
        }
        if (Math.abs(lng) > MAX_LNG || Math.abs(lat) > 90) return `${where}: position [${lng}, ${lat}] is outside longitude -360..360 / latitude -90..90`;
      } else for (const c of v) stack.push(c);
    }
  }
  return undefined;
}
