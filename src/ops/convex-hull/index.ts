import { eachVertex } from '../../geometry/groups.js';
import { convexHull } from '../../geometry/measure.js';
import { wholeHull } from '../../geometry/whole.js';
import { onePolygonOp } from '../bbox/index.js';

/** One polygon: the convex hull of every input vertex. */
export const convexHullOp = onePolygonOp(
  'convex-hull',
  'one polygon: the convex hull of every input vertex',
  (groups) => {
    const xy: number[] = [];
    eachVertex(groups)((x, y) => xy.push(x, y));
    return convexHull(xy);
  },
  wholeHull,
);
