// The style both pixel-ratio tests render (tests/server/pixel-ratio.test.ts, tests/cli/pixel-ratio.test.ts).
/** A line, a triangle and three points, with a width per feature (`w`). */
export const RATIO_FEATURES = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { w: 2 },
      geometry: {
        type: 'LineString',
        coordinates: [
          [-60, -30],
          [10, 20],
          [70, -10],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { w: 1 },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-20, -20],
            [30, -25],
            [25, 30],
            [-20, -20],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { w: 3 },
      geometry: {
        type: 'MultiPoint',
        coordinates: [
          [-80, 40],
          [60, 45],
          [0, -50],
        ],
      },
    },
  ],
};

/**
 * A style whose pixel sizes are `k` times the base ones: a blurred fill, a stroke with a
 * width-expr, circles with a stroke. Rendered at pixel ratio k it must equal k = 1 at ratio k.
 */
export function ratioStyle(k: number): object {
  return {
    output: 'out',
    params: { sigma: { type: 'number', default: 1.5 * k, min: 0, max: 12 } },
    sources: { f: { type: 'geojson', data: RATIO_FEATURES } },
    nodes: {
      f: { op: 'features', source: 'f' },
      paper: { op: 'solid', color: '#ffffff' },
      fill: { op: 'fill-solid', features: '@f', fill: '#1f6feb' },
      soft: { op: 'blur', input: '@fill', sigma: '$sigma' },
      line: {
        op: 'stroke-solid',
        features: '@f',
        color: '#d0312d',
        width: 1.25 * k,
        'width-expr': ['*', k, ['get', 'w']],
        join: 'round',
        cap: 'round',
        'width-max': 8 * k,
      },
      dots: { op: 'circles', features: '@f', color: '#222222', radius: 3 * k, 'stroke-width': 1 * k, 'stroke-color': '#ffcc00' },
      a: { op: 'blend', base: '@paper', over: '@soft' },
      b: { op: 'blend', base: '@a', over: '@line' },
      out: { op: 'blend', base: '@b', over: '@dots' },
    },
  };
}
