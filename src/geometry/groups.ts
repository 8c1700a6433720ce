// Small helpers over feature groups shared by the geometry ops.
import type { FeatureGroup, Features } from '../types.js';
import { CUT_END_X, CUT_END_Y, CUT_START_X, CUT_START_Y } from './clip.js';

/** Visit every vertex of every group: polygon rings, lines and points pooled. */
export function eachVertex(groups: readonly FeatureGroup[]): (visit: (x: number, y: number) => void) => void {
  return (visit) => {
    for (const g of groups) {
      for (const poly of g.polygons) for (const ring of poly) for (let i = 0; i + 1 < ring.length; i += 2) visit(ring[i]!, ring[i + 1]!);
      for (const line of g.lines) for (let i = 0; i + 1 < line.length; i += 2) visit(line[i]!, line[i + 1]!);
      for (let i = 0; i + 1 < g.points.length; i += 2) visit(g.points[i]!, g.points[i + 1]!);
    }
  };
}

/** A new group carrying a source group's id and properties, with the given geometry. */
export function groupLike(g: FeatureGroup, geom: Partial<Pick<FeatureGroup, 'polygons' | 'lines' | 'points' | 'cutEnds' | 'polygonCuts'>>): FeatureGroup {
  const out: FeatureGroup = { properties: g.properties, polygons: geom.polygons ?? [], lines: geom.lines ?? [], points: geom.points ?? new Float64Array(0) };
  if (g.id !== undefined) out.id = g.id;
  if (geom.cutEnds) out.cutEnds = geom.cutEnds;
  if (geom.polygonCuts) out.polygonCuts = geom.polygonCuts;
  return out;
}

export const features = (groups: FeatureGroup[]): Features => ({ kind: 'features', groups });

/** True when a group holds some geometry. */
export const nonEmpty = (g: FeatureGroup): boolean => g.polygons.length > 0 || g.lines.length > 0 || g.points.length > 0;

/**
 * The groups in order, as runs of groups to draw as one: groups with equal id and properties
 * (`same`) whose lines meet at a cut point on a source tile's side (FeatureGroup.cutEnds' side
 * bits: the end of a piece one source tile holds, where the next tile's piece of the line starts,
 * at the very same coordinates). Each run stands where its first group stands; a group alone is a
 * run of one. A canvas that merges source tiles holds a line without ids (or with ids a tileset
 * reuses) as one group per tile; an op that treats a feature as one thing (a brush's dabs united
 * by maximum) then draws the line as one feature again, as a canvas within one tile's buffer does.
 * Only cut points within `box` ([x0, y0, x1, y1]: where joining can change what the op draws) are
 * looked at: the cuts at the sides of a canvas's block of source tiles lie outside it.
 */
export function joinedAtCuts(
  groups: readonly FeatureGroup[],
  same: (a: FeatureGroup, b: FeatureGroup) => boolean,
  box: readonly [number, number, number, number],
): FeatureGroup[][] {
  // Cut points on a side, by exact coordinates: the groups that end or start a piece there.
  let at: Map<string, number> | undefined;
  let parent: Int32Array | undefined;
  const root = (i: number): number => {
    while (parent![i] !== i) i = parent![i] = parent![parent![i]!]!;
    return i;
  };
  for (let gi = 0; gi < groups.length; gi++) {
    const g = groups[gi]!;
    const cuts = g.cutEnds;
    if (!cuts) continue;
    for (let i = 0; i < g.lines.length; i++) {
      const c = cuts[i]!;
      if ((c & (CUT_START_X | CUT_START_Y | CUT_END_X | CUT_END_Y)) === 0) continue;
      const l = g.lines[i]!;
      for (const end of [false, true]) {
        if ((c & (end ? CUT_END_X | CUT_END_Y : CUT_START_X | CUT_START_Y)) === 0) continue;
        const x = end ? l[l.length - 2]! : l[0]!;
        const y = end ? l[l.length - 1]! : l[1]!;
        if (!(x >= box[0] && y >= box[1] && x <= box[2] && y <= box[3])) continue;
        const key = `${x},${y}`;
        at ??= new Map();
        const other = at.get(key);
        if (other === undefined) {
          at.set(key, gi);
          continue;
        }
        if (other === gi || !same(groups[other]!, g)) continue;
        parent ??= Int32Array.from(groups, (_, k) => k);
        const a = root(other);
        const b = root(gi);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  if (!parent) return groups.map((g) => [g]);
  const runs: FeatureGroup[][] = [];
  const runOf = new Map<number, FeatureGroup[]>();
  for (let gi = 0; gi < groups.length; gi++) {
    const r = root(gi);
    let run = runOf.get(r);
    if (!run) {
      runOf.set(r, (run = []));
      runs.push(run);
    }
    run.push(groups[gi]!);
  }
  return runs;
}
