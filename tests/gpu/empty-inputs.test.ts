// Ops whose features miss the window entirely: the GPU binds their (empty) data arrays all the
// same, and a binding must be at least as large as one element of the shader's array (WebGPU's
// minimum binding size: 16 bytes for array<vec4f>, 48 for the circles' struct). The GPU bench's
// heatmap export found it (tiles of zoom 3 with no point: "Binding size (4) ... is smaller than
// the minimum binding size (16)"). Witness: the CPU backend's render of the same style.
import { CpuBackend } from '../../src/index.js';
import { diffRasters, gpu, renderOn, testWindow } from './harness.js';

const far = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [170, -60] } }] };
const farLine = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: {},
      geometry: {
        type: 'LineString',
        coordinates: [
          [170, -60],
          [171, -61],
        ],
      },
    },
  ],
};

const styles: Record<string, object> = {
  density: {
    output: 'out',
    sources: { p: { type: 'geojson', data: far } },
    nodes: {
      p: { op: 'features', source: 'p' },
      d: { op: 'density', features: '@p', radius: 20 },
      r: {
        op: 'color-ramp',
        field: '@d',
        stops: [
          { value: 0, color: '#ffffff00' },
          { value: 1, color: '#ff0000' },
        ],
      },
      bg: { op: 'solid', color: '#203040' },
      out: { op: 'blend', base: '@bg', over: '@r' },
    },
  },
  circles: {
    output: 'out',
    sources: { p: { type: 'geojson', data: far } },
    nodes: {
      p: { op: 'features', source: 'p' },
      c: { op: 'circles', features: '@p', radius: 6, color: '#ff0000', 'stroke-color': '#ffffff', 'stroke-width': 1 },
      bg: { op: 'solid', color: '#203040' },
      out: { op: 'blend', base: '@bg', over: '@c' },
    },
  },
  strokes: {
    output: 'out',
    sources: { l: { type: 'geojson', data: farLine } },
    nodes: {
      l: { op: 'features', source: 'l' },
      s: { op: 'stroke-solid', features: '@l', width: 2, color: '#ff0000' },
      bg: { op: 'solid', color: '#203040' },
      out: { op: 'blend', base: '@bg', over: '@s' },
    },
  },
};

describe('GPU ops with no feature in the window', () => {
  for (const [name, style] of Object.entries(styles)) {
    test(`${name}: renders, and equals the CPU`, async () => {
      const g = await gpu();
      if (!g) return;
      const w = testWindow(64); // tile 3/4/2: Europe and Africa, far from the point
      const [c, r] = await Promise.all([renderOn(new CpuBackend(), style, w), renderOn(g, style, w)]);
      expect(diffRasters(c.raster, r.raster).max8).toBeLessThanOrEqual(1);
    });
  }
});
