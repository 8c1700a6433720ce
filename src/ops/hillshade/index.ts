import { bool, color, nodeRef, numRef, oneOfEnum } from '../../style/fields.js';
import type { Raster } from '../../types.js';
import type { OpDef } from '../types.js';
import { hillshade as shade } from './cpu.js';
import { premultiply, rowInverseResolution, shadeInputs } from './plan.js';
import { maplibreHillshade } from './maplibre.js';
import { gpu } from './gpu.js';

/** Shaded relief from an elevation field: `gdaldem hillshade` (Horn) at each row's ground resolution; pad 1. */
export const hillshade: OpDef = {
  name: 'hillshade',
  description:
    "shaded relief from an elevation field (metres): GDAL's hillshade value v (1..255, Horn's gradient, ground pixel size at each row's latitude) mapped to shadow-color + (highlight-color - shadow-color) v / 255, accent-color laid over with coverage sin(slope); the defaults give gdaldem's grey image",
  output: 'raster',
  inputs: { field: ['scalar-field'] },
  fields: {
    field: nodeRef('the elevation field, metres (a dem node)'),
    azimuth: numRef({ default: 315, unit: 'deg', description: 'light direction, degrees clockwise from north' }),
    altitude: numRef({ min: 0, max: 90, default: 45, unit: 'deg', description: 'light elevation above the horizon, degrees' }),
    'z-factor': numRef({ default: 1, description: 'vertical exaggeration' }),
    multidirectional: bool(false),
    'shadow-color': color('colour at v = 0 (default #000000)'),
    'highlight-color': color('colour at v = 255 (default #ffffff)'),
    'accent-color': color('laid over steep slopes with coverage sin(slope) (default transparent)'),
    method: oneOfEnum(['horn', 'maplibre'], 'horn'),
    exaggeration: numRef({ min: 0, max: 1, default: 0.5, description: "method maplibre: MapLibre's hillshade-exaggeration" }),
    'dem-tile-size': {
      type: 'integer',
      enum: [256, 512],
      default: 512,
      description: "method maplibre: the DEM source's tile size (MapLibre's shading depends on it)",
    },
  },
  required: ['field'],
  pad: () => 1,
  gpu,
  cpu(ctx) {
    const field = ctx.input<'scalar-field'>('field');
    const { width, height } = ctx.canvas;
    if (ctx.node.method === 'maplibre') {
      const data = maplibreHillshade(field.data, width, height, ctx.canvas, {
        exaggeration: ctx.num('exaggeration'),
        direction: ctx.num('azimuth'),
        shadow: premultiply(ctx.color('shadow-color', [0, 0, 0, 1])),
        highlight: premultiply(ctx.color('highlight-color', [1, 1, 1, 1])),
        accent: premultiply(ctx.color('accent-color', [0, 0, 0, 1])),
        demTileSize: typeof ctx.node['dem-tile-size'] === 'number' ? ctx.node['dem-tile-size'] : 512,
      });
      return { kind: 'raster', width, height, data } satisfies Raster;
    }
    const { terms, colours } = shadeInputs(ctx);
    const data = shade(field.data, width, height, rowInverseResolution(ctx.canvas), terms, colours);
    return { kind: 'raster', width, height, data } satisfies Raster;
  },
};
