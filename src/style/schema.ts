// The JSON Schema of the whole style format, assembled from the op modules' field declarations.
import { OPS } from '../ops/index.js';
import { COLOR, NODE_REF, type Schema } from './fields.js';
import { KINDS } from '../types.js';

const PARAM_NAME = '^[A-Za-z0-9_-]+$';
const NAME = '^[A-Za-z_][A-Za-z0-9_-]*$';

function nodeSchema(): Schema {
  const opNames = [...OPS.keys()].sort();
  return {
    type: 'object',
    required: ['op'],
    properties: { op: { type: 'string', enum: opNames } },
    allOf: opNames.map((name) => ({
      if: { properties: { op: { const: name } }, required: ['op'] },
      then: { $ref: `#/$defs/op-${name}` },
    })),
  };
}

export function opSchema(name: string): Schema {
  const op = OPS.get(name)!;
  return {
    type: 'object',
    description: op.description,
    properties: { op: { const: name }, ...op.fields },
    required: op.required ?? [],
    additionalProperties: false,
  };
}

const tileTemplates = { type: 'array', minItems: 1, items: { type: 'string' }, 'x-expect': 'an array of tile URL / path templates with {z}, {x}, {y}' };
const bounds = {
  type: 'array',
  items: { type: 'number' },
  minItems: 4,
  maxItems: 4,
  'x-expect': 'four numbers [west, south, east, north] in degrees',
};
const buffer = { type: 'integer', minimum: 0, maximum: 4096, default: 64, description: 'how far tile data reaches past its square, in 4096ths of a tile' };
const scheme = { type: 'string', enum: ['xyz', 'tms'], default: 'xyz' };
const tilejson = { type: 'string', description: 'a TileJSON (path or URL) whose tiles, zooms, bounds, scheme and attribution fill the fields not given' };
const missing = {
  type: 'string',
  enum: ['error', 'empty'],
  default: 'error',
  description: "a tile the server or the disk does not have (404, no such file): an error, or an empty tile (MapLibre's way)",
};
/** The `then` of an image tile set (dem, raster): tile templates, a PMTiles `url` or a TileJSON; `own`: the type's fields. */
const imageTileSet = (archive: string, own: Record<string, unknown>) => ({
  anyOf: [{ required: ['tiles'] }, { required: ['url'] }, { required: ['tilejson'] }],
  'x-expect': `a 'tiles' template list, a ${archive} 'url' or a 'tilejson'`,
  properties: {
    tiles: tileTemplates,
    url: { type: 'string' },
    tilejson,
    ...own,
    tileSize: { type: 'integer', enum: [256, 512], default: 512 },
    scheme,
    bounds,
    missing,
  },
});
const promoteId = {
  anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
  'x-expect': 'a property name, or an object of layer name to property name',
  description: 'the property that becomes the feature id (for ["id"] in expressions)',
};

// Fields per source type (DESIGN.md section 4, docs/sources.md); unknown fields are errors.
const sourceSchema: Schema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: ['mvt', 'pmtiles', 'geojson', 'dem', 'raster'] },
    attribution: { type: 'string' },
    minzoom: { type: 'integer', minimum: 0, maximum: 24 },
    maxzoom: { type: 'integer', minimum: 0, maximum: 24 },
  },
  unevaluatedProperties: false,
  allOf: [
    {
      if: { properties: { type: { const: 'geojson' } } },
      then: {
        required: ['data'],
        properties: {
          data: { anyOf: [{ type: 'string' }, { type: 'object' }], 'x-expect': 'a path, a URL, an npm: reference or an inline GeoJSON object' },
          buffer,
          tolerance: { type: 'number', minimum: 0, default: 3 },
          promoteId: { type: 'string' },
          antimeridian: {
            type: 'string',
            enum: ['as-written', 'short-way'],
            description:
              "'as-written': edges are straight in longitude/latitude (RFC 7946; default for GeoJSON); 'short-way': an edge between longitudes more than 180 degrees apart crosses the antimeridian (spherical data; default for TopoJSON)",
          },
        },
      },
    },
    {
      if: { properties: { type: { const: 'mvt' } } },
      then: {
        anyOf: [{ required: ['tiles'] }, { required: ['tilejson'] }],
        'x-expect': "a 'tiles' template list or a 'tilejson'",
        properties: { tiles: tileTemplates, tilejson, scheme, bounds, buffer, missing, promoteId, layers: { type: 'array', items: { type: 'string' } } },
      },
    },
    {
      if: { properties: { type: { const: 'pmtiles' } } },
      then: { required: ['url'], properties: { url: { type: 'string' }, buffer, promoteId } },
    },
    {
      if: { properties: { type: { const: 'dem' } } },
      then: imageTileSet('PMTiles', { encoding: { type: 'string', enum: ['terrarium', 'mapbox'], default: 'mapbox' } }),
    },
    {
      if: { properties: { type: { const: 'raster' } } },
      then: imageTileSet('raster PMTiles', {}),
    },
  ],
};

const paramSchema: Schema = {
  type: 'object',
  required: ['type', 'default'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['color', 'number', 'bool'] },
    default: {},
    min: { type: 'number' },
    max: { type: 'number' },
    description: { type: 'string' },
    // Presentation only (issue 15): a human label and a group heading for a params panel.
    label: { type: 'string' },
    group: { type: 'string' },
  },
  allOf: [
    { if: { properties: { type: { const: 'number' } } }, then: { properties: { default: { type: 'number' } } } },
    { if: { properties: { type: { const: 'bool' } } }, then: { properties: { default: { type: 'boolean' } } } },
    {
      if: { properties: { type: { const: 'color' } } },
      then: { properties: { default: { type: 'string', pattern: COLOR, 'x-expect': 'a colour #rrggbb or #rrggbbaa' } } },
    },
  ],
};

let cached: Schema | undefined;

/** The format's JSON Schema (draft 2020-12). */
export function styleSchema(): Schema {
  if (cached) return cached;
  const defs: Record<string, Schema> = { node: nodeSchema(), source: sourceSchema, param: paramSchema };
  for (const name of OPS.keys()) defs[`op-${name}`] = opSchema(name);
  cached = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://tilegraph.dev/schema/style.json',
    title: 'tilegraph style document',
    type: 'object',
    required: ['nodes', 'output'],
    // A misspelled top-level key ('legnd') must not be ignored silently.
    additionalProperties: false,
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string' },
      description: { type: 'string', description: 'what the style shows and where, in a sentence (plain text)' },
      version: { type: 'string' },
      attribution: { type: 'string' },
      output: { type: 'string', pattern: NODE_REF, description: 'the node whose raster is the tile' },
      'zoom-basis': {
        type: 'integer',
        minimum: 1,
        maximum: 4096,
        description:
          'tile size (pixels at ratio 1) at which expressions see the tile zoom: at another size they see z + log2(size / basis) (MapLibre styles: 512)',
      },
      params: {
        type: 'object',
        propertyNames: { pattern: PARAM_NAME, not: { const: 'v' } },
        additionalProperties: { $ref: '#/$defs/param' },
      },
      nodes: { type: 'object', propertyNames: { pattern: NAME }, additionalProperties: { $ref: '#/$defs/node' } },
      functions: {
        type: 'object',
        propertyNames: { pattern: NAME },
        additionalProperties: {
          type: 'object',
          required: ['nodes', 'output', 'output-kind'],
          additionalProperties: false,
          properties: {
            description: { type: 'string' },
            inputs: {
              type: 'object',
              propertyNames: { pattern: NAME },
              additionalProperties: {
                type: 'object',
                required: ['kind'],
                additionalProperties: false,
                properties: { kind: { type: 'string', enum: [...KINDS] }, default: {}, description: { type: 'string' } },
              },
            },
            nodes: { type: 'object', propertyNames: { pattern: NAME }, additionalProperties: { $ref: '#/$defs/node' } },
            output: { type: 'string', pattern: NODE_REF },
            'output-kind': { type: 'string', enum: [...KINDS] },
          },
        },
      },
      legend: {
        type: 'object',
        additionalProperties: false,
        properties: {
          title: { type: 'string' },
          note: { type: 'string' },
          entries: {
            type: 'array',
            items: {
              type: 'object',
              required: ['label', 'from'],
              additionalProperties: false,
              properties: {
                label: { type: 'string' },
                from: { type: 'string', pattern: NODE_REF },
                geometry: { type: 'string', enum: ['all', 'polygon', 'line', 'point'] },
                'min-zoom': { type: 'integer', minimum: 0 },
                'max-zoom': { type: 'integer', minimum: 0 },
                note: { type: 'string' },
                properties: { type: 'object' },
              },
            },
          },
        },
      },
      sources: { type: 'object', propertyNames: { pattern: NAME }, additionalProperties: { $ref: '#/$defs/source' } },
    },
    $defs: defs,
  };
  return cached;
}
