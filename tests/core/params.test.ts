// The params' JSON Schema (what /style/params and the browser's paramsSchema serve), and cache keys.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Renderer } from '../../src/index.js';

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
