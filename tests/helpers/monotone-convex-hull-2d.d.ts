// monotone-convex-hull-2d (a test reference for convex-hull) ships no types.
declare module 'monotone-convex-hull-2d' {
  /** Indices of the hull's points, counter-clockwise. */
  export default function monotoneConvexHull2D(points: readonly (readonly [number, number])[]): number[];
}
