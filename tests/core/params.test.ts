// The params' JSON Schema (what /style/params and the browser's paramsSchema serve), and cache keys.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ParamError, ParamValues, Renderer } from '../../src/index.js';

const doc = {
  name: 'Demo',
  output: 'out',
  params: {
    width: { type: 'number', default: 2, min: 0, max: 8, description: 'line width' },
    tint: { type: 'color', default: '#336699' },
    on: { type: 'bool', default: true },
    k: { type: 'number', default: 3 },
  },
  nodes: {
    z: { op: 'math', fn: 'mul', a: '$k', b: 2 },
    out: { op: 'solid', color: '$tint' },
  },
};

describe('params schema', () => {
  const r = Renderer.create(doc);
  const schema = r.paramsSchema as { properties: Record<string, Record<string, unknown>> };

  test('types, defaults, ranges and descriptions are derived', () => {
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', title: 'Demo params' });
    expect(schema.properties.width).toMatchObject({ type: 'number', default: 2, minimum: 0, maximum: 8, description: 'line width' });
    expect(schema.properties.tint).toMatchObject({ type: 'string', format: 'color', default: '#336699' });
    expect(schema.properties.on).toMatchObject({ type: 'boolean', default: true });
    expect(schema.properties.k).not.toHaveProperty('maximum');
  });

  test('the derived schema is a valid JSON Schema that accepts the defaults and rejects bad values', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addFormat('color', /^#([0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
    const validate = ajv.compile(schema);
    expect(validate({ width: 2, tint: '#336699', on: true, k: 3 })).toBe(true);
    expect(validate({ width: 9 })).toBe(false);
    expect(validate({ tint: 'red' })).toBe(false);
    expect(validate({ on: 'yes' })).toBe(false);
  });

  test('it is derived once per style', () => {
    expect(r.paramsSchema).toBe(r.paramsSchema);
  });
});

describe('params each node reads (cache keys)', () => {
  const r = Renderer.create(doc);
  test('the output reads only the params it depends on', () => {
    expect(r.plan.nodes.get('out')!.params).toEqual(new Set(['tint']));
    expect(r.plan.order).toEqual(['out']);
  });
  test('keys differ exactly when a read value differs', () => {
    const reads = r.plan.nodes.get('out')!.params;
    const a = r.params({ tint: '#ff0000' }).key(reads);
    expect(r.params({ tint: '#ff0000', width: '5' }).key(reads)).toBe(a);
    expect(r.params({ tint: '#ff0001' }).key(reads)).not.toBe(a);
    expect(a).toBe('tint=#ff0000ff');
  });
});

describe('override parsing is strict (issue 13 defect 4)', () => {
  const r = Renderer.create(doc);
  test.each(['0x5', '0b1', '0o7', ' 0.5', '0.5 ', '1e400', '-1e400', 'Infinity', 'NaN', '', '+', '1.2.3', '5px'])('%j is not a number', (v) => {
    expect(() => r.params({ k: v })).toThrow(/is not a number/);
  });
  test.each([
    ['3', 3],
    ['-2.5', -2.5],
    ['.5', 0.5],
    ['5.', 5],
    ['1e3', 1000],
    ['2E-2', 0.02],
  ])('%j is %d', (v, n) => {
    expect(r.params({ k: v }).get('k')).toBe(n);
  });
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('%s is an unknown param, not a crash', (name) => {
    const overrides = Object.create(null) as Record<string, string>;
    overrides[name] = '1';
    expect(() => r.params(overrides)).toThrow(new RegExp(`unknown param '${name}'`));
  });
  test('values cross a worker boundary as values, checked against the declarations', () => {
    const p = r.params({ width: '4', tint: '#ff0000' });
    const back = ParamValues.fromValues(r.plan.params, structuredClone(p.toValues()));
    expect(back.key(['width', 'tint', 'on', 'k'])).toBe(p.key(['width', 'tint', 'on', 'k']));
    expect(() => ParamValues.fromValues(r.plan.params, { width: 9 })).toThrow(ParamError);
    expect(() => ParamValues.fromValues(r.plan.params, { width: '4' })).toThrow(/not a number/);
    expect(() => ParamValues.fromValues(r.plan.params, { tint: '#ff0000' })).toThrow(/not an RGBA colour/);
    expect(() => ParamValues.fromValues(r.plan.params, { constructor: 1 })).toThrow(/unknown param/);
    expect(p.strings()).toEqual({ width: '4', tint: '#ff0000ff', on: 'true', k: '3' });
  });
});
