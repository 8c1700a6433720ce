// Styles the text tests share (src/ops/text): Natural Earth's populated places labelled by name,
// and Chicago's street names along their lines, avoiding its POI names.
import { chicagoSource } from '../sources/helpers.js';
import { fixture } from './fixtures.js';

/**
 * Every populated place of Natural Earth 1:110m labelled by its name (11 px, 1.5 px halo, padding
 * 2, the lower scalerank first) over a solid background; `text` adds to or overrides the text
 * node's fields.
 */
export const placesStyle = (background: string, text: Record<string, unknown> = {}) => ({
  output: 'out',
  sources: { places: { type: 'geojson', data: fixture('geojson', 'ne_110m_populated_places_simple.geojson') } },
  nodes: {
    bg: { op: 'solid', color: background },
    pts: { op: 'features', source: 'places' },
    labels: {
      op: 'text',
      features: '@pts',
      'text-expr': ['get', 'name'],
      size: 11,
      'halo-width': 1.5,
      padding: 2,
      'max-extent': 72,
      'priority-expr': ['-', 0, ['get', 'scalerank']],
      ...text,
    },
    out: { op: 'blend', base: '@bg', over: '@labels' },
  },
});

/**
 * Chicago (mvt-fixtures, z13): street names along road_label lines (10 px, every 160 px, bends up
 * to 30 degrees) avoiding the POI names of poi_label, 1.5 px halos, over a solid background;
 * `pois` and `names` add to or override the two text nodes' fields.
 */
export const chicagoStyle = (background: string, pois: Record<string, unknown> = {}, names: Record<string, unknown> = {}) => ({
  output: 'out',
  sources: { streets: chicagoSource() },
  nodes: {
    bg: { op: 'solid', color: background },
    rl: { op: 'features', source: 'streets', layer: 'road_label' },
    pl: { op: 'features', source: 'streets', layer: 'poi_label' },
    pois: { op: 'text', features: '@pl', 'text-expr': ['get', 'name'], size: 10, 'halo-width': 1.5, padding: 2, 'max-extent': 48, ...pois },
    names: {
      op: 'text',
      features: '@rl',
      'text-expr': ['get', 'name'],
      placement: 'line',
      size: 10,
      'halo-width': 1.5,
      spacing: 160,
      'max-angle': 30,
      padding: 2,
      'max-extent': 48,
      avoid: ['@pois'],
      ...names,
    },
    b: { op: 'blend', base: '@bg', over: '@pois' },
    out: { op: 'blend', base: '@b', over: '@names' },
  },
});
