// polylabel (mapbox, ISC) ships no types.
declare module 'polylabel' {
  /** The pole of inaccessibility of a polygon [exterior, ...holes] of [x, y] points, within `precision`. */
  export default function polylabel(polygon: number[][][], precision?: number, debug?: boolean): number[] & { distance: number };
}
