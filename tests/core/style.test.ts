// Style loading: the format's JSON Schema, every problem at once, JSON pointers, plain sentences.
import { StyleError } from '../../src/errors.js';
import { loadStyle } from '../../src/style/load.js';
import { styleSchema } from '../../src/style/schema.js';
import { OPS } from '../../src/ops/index.js';

function problems(doc: unknown): { pointer: string; message: string }[] {
  try {
    loadStyle(doc as object);
  } catch (e) {
    if (e instanceof StyleError) return e.problems;
    throw e;
  }
  return [];
}

describe('loadStyle', () => {
  test('a valid document loads', () => {
    expect(problems({ output: 'out', nodes: { out: { op: 'solid', color: '#102030' } } })).toEqual([]);
  });

  test('bad JSON text is one clear problem', () => {
    expect(() => loadStyle('{"nodes": ')).toThrow(/not valid JSON/);
  });

  test('an unknown op names the nearest known op', () => {
    expect(problems({ output: 'out', nodes: { out: { op: 'colour-ramp', field: '@x' } } })).toEqual([
      { pointer: '/nodes/out/op', message: "unknown op 'colour-ramp'; did you mean 'color-ramp'?" },
    ]);
  });

  test('every problem is reported at once, each with its pointer', () => {
    const p = problems({
      output: 'out',
      params: { 'bad name': { type: 'number', default: 1 }, w: { type: 'number', default: 'x' } },
      nodes: {
        out: { op: 'blur', input: '@a', sigma: -1, sigmma: 2 },
        a: { op: 'solid', color: 'red' },
        c: { op: 'color-ramp', field: '@a', stops: [{ value: 0, color: '#000000' }] },
      },
    });
    const at = (ptr: string) => p.filter((x) => x.pointer === ptr).map((x) => x.message);
    expect(at('/nodes/out/sigma')).toEqual(['-1 is not valid: expected a number >= 0 or a $param / @node reference']);
    expect(at('/nodes/out/sigmma')).toEqual(["unknown field 'sigmma'; did you mean 'sigma'?"]);
    expect(at('/nodes/a/color')).toEqual(['"red" is not valid: expected a colour #rrggbb or #rrggbbaa, or a $param / @node reference']);
    expect(at('/nodes/c/stops')).toEqual(['needs at least 2 item(s)']);
    expect(at('/params/bad name')).toEqual(["'bad name' is not a valid name: use letters, digits, '_' and '-'"]);
    expect(at('/params/w/default')).toHaveLength(1);
  });

  test('missing required fields are named', () => {
    expect(problems({ output: 'out', nodes: { out: { op: 'blur', input: '@x' } } })).toEqual([
      { pointer: '/nodes/out', message: "missing required field 'sigma'" },
    ]);
    expect(problems({ nodes: {} })).toEqual([{ pointer: '', message: "missing required field 'output'" }]);
  });

  test("'v' cannot be a param name", () => {
    expect(problems({ output: 'o', params: { v: { type: 'number', default: 1 } }, nodes: { o: { op: 'solid', color: '#000000' } } })).toEqual([
      { pointer: '/params/v', message: "'v' is reserved (the tile server's style-version query key) and cannot be a param name" },
    ]);
  });

  test('ranges and limits of section 8 are in the schema', () => {
    const sources = { s: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } } };
    const bad = (node: object) => problems({ output: 'o', sources, nodes: { o: node } }).length > 0;
    expect(bad({ op: 'features', 'min-zoom': 25 })).toBe(true);
    expect(bad({ op: 'features', 'max-zoom': 24 })).toBe(false);
    expect(bad({ op: 'dilate', input: '@x', 'radius-px': 257 })).toBe(true);
    expect(bad({ op: 'dilate', input: '@x', 'radius-px': 1.5 })).toBe(true);
    expect(bad({ op: 'brush-solid', 'width-px': 0.3, color: '#000000' })).toBe(true);
    expect(bad({ op: 'brush-solid', 'width-px': 0.4, color: '#000000', 'dabs-per-radius': 0.4 })).toBe(true);
    expect(bad({ op: 'dither', input: '@x', palette: [] })).toBe(true);
    expect(bad({ op: 'contour', field: '@x', levels: [] })).toBe(true);
    expect(bad({ op: 'circle', color: '#000000', 'radius-frac': 0.5, 'width-px': 0 })).toBe(true);
    expect(bad({ op: 'blend', base: '@a', over: '@b', mode: 'plus' })).toBe(true);
    expect(
      bad({
        op: 'color-ramp',
        field: '@a',
        stops: [
          { value: '@n', color: '#000000' },
          { value: 1, color: '#ffffff' },
        ],
      }),
    ).toBe(true);
    expect(
      bad({
        op: 'color-ramp',
        field: '@a',
        stops: [
          { value: '$n', color: '$c' },
          { value: 1, color: '#ffffff' },
        ],
      }),
    ).toBe(false);
  });

  test('the schema covers every op of the format with its fields', () => {
    const defs = (styleSchema() as { $defs: Record<string, { properties: Record<string, unknown> }> }).$defs;
    const spec = [
      'bbox',
      'boundary',
      'buffer',
      'centroid',
      'convex-hull',
      'dash',
      'densify',
      'feature-boolean',
      'dot-density',
      'features',
      'dem',
      'density',
      'contour',
      'color-ramp',
      'blend',
      'blur',
      'brightness-contrast',
      'channel-shuffle',
      'color-to-alpha',
      'dilate',
      'erode',
      'displace',
      'dither',
      'edge-detect',
      'expr',
      'circle',
      'circles',
      'brush-solid',
      'brush-file',
      'solid',
      'math',
      'zoom',
      'fill-solid',
      'func',
      'stroke-solid',
      'stroke',
      'stamp',
      'fill-pattern',
      'hillshade',
      'noise',
      'threshold',
    ];
    for (const op of spec) {
      expect(OPS.has(op)).toBe(true);
      expect(defs[`op-${op}`]).toBeDefined();
    }
    expect(Object.keys(defs['op-displace']!.properties)).toEqual(
      expect.arrayContaining(['input', 'displacement', 'amp-px', 'amp-x-px', 'amp-y-px', 'amp-x-px-max', 'amp-y-px-max', 'boundary']),
    );
  });
});

describe('docs/ops.md', () => {
  test('is generated from the op modules and up to date (npm run build rewrites it)', async () => {
    const { readFileSync } = await import('node:fs');
    const { opsMarkdown } = await import('../../src/style/ops-doc.js');
    expect(readFileSync('docs/ops.md', 'utf8')).toBe(opsMarkdown());
  });
});

describe('source declarations', () => {
  const doc = (src: object) => ({ output: 'o', sources: { s: src }, nodes: { o: { op: 'solid', color: '#000000' } } });
  test('each type takes its own fields and rejects unknown ones', () => {
    expect(problems(doc({ type: 'mvt', tiles: ['t/{z}/{x}/{y}.pbf'], bounds: [0, 0, 1, 1], scheme: 'tms', buffer: 64 }))).toEqual([]);
    expect(problems(doc({ type: 'geojson', data: 'x.geojson', tolerance: 1, promoteId: 'id' }))).toEqual([]);
    expect(problems(doc({ type: 'dem', tiles: ['d/{z}/{x}/{y}.png'], encoding: 'terrarium', tileSize: 256 }))).toEqual([]);
    expect(problems(doc({ type: 'pmtiles', url: 'a.pmtiles' }))).toEqual([]);
    expect(problems(doc({ type: 'mvt', tiles: ['t'], tile: 1 }))).toEqual([
      { pointer: '/sources/s/tile', message: "unknown field 'tile'; did you mean 'tiles'?" },
    ]);
    expect(problems(doc({ type: 'mvt', tiles: ['t'], bounds: [0, 0, 1] })).map((p) => p.pointer)).toEqual(['/sources/s/bounds']);
    expect(problems(doc({ type: 'dem', encoding: 'terrarium' })).length).toBeGreaterThan(0);
    expect(problems(doc({ type: 'geojson' }))).toEqual([{ pointer: '/sources/s', message: "missing required field 'data'" }]);
  });
});

describe('mistakes found at load, not on every tile (issue 13 defect 9)', () => {
  const problems = (doc: object) => {
    try {
      loadStyle(doc);
    } catch (e) {
      expect(e).toBeInstanceOf(StyleError);
      return (e as StyleError).problems;
    }
    throw new Error('expected a StyleError');
  };
  const solid = { op: 'solid', color: '#000000' };

  test('a misspelled top-level key is an error with a suggestion', () => {
    expect(problems({ output: 'o', nodes: { o: solid }, legnd: { entries: [] } })).toEqual([
      { pointer: '/legnd', message: "unknown field 'legnd'; did you mean 'legend'?" },
    ]);
  });

  const sources = {
    roads: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    water: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    relief: { type: 'dem', tiles: ['d/{z}/{x}/{y}.png'] },
    tiles: { type: 'mvt', tiles: ['t/{z}/{x}/{y}.pbf'] },
  };
  const fill = (f: object) => ({ output: 'o', sources, nodes: { f: { op: 'features', ...f }, o: { op: 'fill-solid', features: '@f', fill: '#000000' } } });

  test('unknown, wrong-type and ambiguous sources; a tiled source without a layer', () => {
    expect(problems(fill({ source: 'road' }))).toEqual([{ pointer: '/nodes/f/source', message: "unknown source 'road'; did you mean 'roads'?" }]);
    expect(problems(fill({ source: 'relief' }))).toEqual([
      { pointer: '/nodes/f/source', message: "source 'relief' is a dem source; a 'features' node needs a feature (mvt, pmtiles or geojson) source" },
    ]);
    expect(problems(fill({}))[0]!.message).toBe("the style has 3 feature (mvt, pmtiles or geojson) sources (roads, water, tiles); name one with 'source'");
    expect(problems(fill({ source: 'tiles' }))[0]).toEqual({ pointer: '/nodes/f', message: "a 'mvt' source holds several layers: name one with 'layer'" });
    expect(() => loadStyle(fill({ source: 'tiles', layer: 'road' }))).not.toThrow();
  });

  test('a dem node without a dem source, and inside a function body', () => {
    const noDem = {
      output: 'o',
      nodes: {
        d: { op: 'dem' },
        o: {
          op: 'color-ramp',
          field: '@d',
          stops: [
            { value: 0, color: '#000000' },
            { value: 1, color: '#ffffff' },
          ],
        },
      },
    };
    expect(problems(noDem)).toEqual([{ pointer: '/nodes/d', message: "the style has no dem source for this 'dem' node" }]);
    const fn = {
      output: 'o',
      sources,
      functions: {
        f: { nodes: { x: { op: 'features', source: 'nope' }, y: { op: 'fill-solid', features: '@x', fill: '#000000' } }, output: 'y', 'output-kind': 'raster' },
      },
      nodes: { o: { op: 'func', function: 'f' } },
    };
    expect(problems(fn)).toEqual([
      { pointer: '/functions/f/nodes/x/source', message: "unknown source 'nope'; the style's sources: roads, water, relief, tiles" },
    ]);
  });
});
