// Every row of the spec's section 7, and every build error of the graph builder.
import { BuildError, ParamError, StyleError, TilegraphError } from '../../src/errors.js';
import { CpuBackend, Renderer, type Backend } from '../../src/index.js';
import { loadStyle } from '../../src/style/load.js';
import { buildPlan } from '../../src/graph/build.js';

const base = {
  output: 'out',
  params: {
    width: { type: 'number', default: 2, min: 0, max: 8 },
    tint: { type: 'color', default: '#336699' },
    on: { type: 'bool', default: true },
    free: { type: 'number', default: 3 },
  },
  nodes: { out: { op: 'solid', color: '$tint' } },
};

function problemsOf(fn: () => unknown): { pointer: string; message: string; param?: string }[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof TilegraphError) return e.problems;
    throw e;
  }
  throw new Error('expected an error');
}

describe('section 7: param overrides are validated before rendering', () => {
  const r = Renderer.create(base);

  test('a number outside its min/max fails, naming the param, the value and the rule', () => {
    const p = problemsOf(() => r.params({ width: '9' }));
    expect(p).toEqual([{ pointer: '', param: 'width', message: "param 'width': 9 is above its max 8" }]);
    expect(problemsOf(() => r.params({ width: '-1' }))[0]!.message).toBe("param 'width': -1 is below its min 0");
    expect(problemsOf(() => r.params({ width: 'wide' }))[0]!.message).toBe("param 'width': 'wide' is not a number");
    expect(problemsOf(() => r.params({ width: '' }))[0]!.message).toMatch(/is not a number/);
    expect(r.params({ width: '8' }).get('width')).toBe(8);
  });

  test('a colour that is neither #rrggbb / #rrggbbaa nor a CSS colour fails', () => {
    for (const bad of ['sand', '336699', '#3366991', '#33669g', 'currentColor', 'rgb(1, 2)', `#${'f'.repeat(70)}`, '']) {
      expect(() => r.params({ tint: bad })).toThrow(ParamError);
    }
    expect(problemsOf(() => r.params({ tint: 'sand' }))[0]!.message).toBe("param 'tint': 'sand' is not a colour; use #rrggbb, #rrggbbaa or a CSS colour name");
    expect(r.params({ tint: '#ff000080' }).get('tint')).toEqual([1, 0, 0, 128 / 255]);
  });

  test('CSS colours are accepted as overrides (issue 23: the CLI refused land=beige, which the workbench took)', () => {
    // Witness: CSS Color Module Level 4, named colours (beige #f5f5dc, rebeccapurple #663399) and
    // hsl(120, 50%, 50%) = rgb(63.75, 191.25, 63.75), stored at 8 bits as #40bf40.
    const same: [string, string][] = [
      ['beige', '#f5f5dc'],
      ['Beige', '#f5f5dc'],
      ['rebeccapurple', '#663399'],
      ['#fff', '#ffffff'],
      ['#0f08', '#00ff0088'],
      ['rgb(10, 20, 30)', '#0a141e'],
      ['rgba(255, 0, 0, 0.5)', '#ff000080'],
      ['hsl(120, 50%, 50%)', '#40bf40'],
      ['transparent', '#00000000'],
    ];
    for (const [css, hex] of same) expect([css, r.params({ tint: css }).get('tint')]).toEqual([css, r.params({ tint: hex }).get('tint')]);
    // One value, one cache key: the canonical text of a named colour is its hex.
    expect(r.params({ tint: 'beige' }).key(['tint'])).toBe(r.params({ tint: '#f5f5dc' }).key(['tint']));
  });

  test('a bool that is not true/false fails', () => {
    for (const bad of ['1', 'yes', 'True', '']) expect(() => r.params({ on: bad })).toThrow(ParamError);
    expect(r.params({ on: 'false' }).get('on')).toBe(false);
  });

  test('every bad override is reported at once', () => {
    const p = problemsOf(() => r.params({ width: '99', tint: 'x', on: 'maybe' }));
    expect(p.map((x) => x.param)).toEqual(['width', 'tint', 'on']);
  });

  test('an override naming no declared param is an error; reserved keys can be ignored', () => {
    expect(problemsOf(() => r.params({ widht: '1' }))[0]!.message).toMatch(/unknown param 'widht'/);
    expect(r.params({ v: 'abc' }, ['v']).get('width')).toBe(2);
  });

  test('an unset param falls back to its default (not an error)', () => {
    const p = r.params({});
    expect(p.get('width')).toBe(2);
    expect(p.get('tint')).toEqual([0x33 / 255, 0x66 / 255, 0x99 / 255, 1]);
    expect(p.get('on')).toBe(true);
  });

  test('a failing override aborts before any rendering', async () => {
    let rendered = false;
    const spy: Backend = { name: 'cpu', isSupported: () => true, recover: async () => false, begin: () => ((rendered = true), new CpuBackend().begin()) };
    await expect(async () =>
      r.renderWindow({ z: 0, x0: 0, y0: 0, width: 4, height: 4, tileSize: 4 }, r.params({ width: '100' }), { backend: spy }),
    ).rejects.toThrow(ParamError);
    expect(rendered).toBe(false);
  });
});

describe('section 7: padding-determining fields need static bounds', () => {
  const doc = (sigma: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    nodes: {
      s: { op: 'solid', color: '#ff0000' },
      k: { op: 'math', fn: 'mul', a: 2, b: 3 },
      out: { op: 'blur', input: '@s', sigma, ...extra },
    },
  });

  test('a $param without max is a build error naming the field and the param', () => {
    const p = problemsOf(() => buildPlan(loadStyle(doc('$free'))));
    expect(p).toEqual([
      {
        pointer: '/nodes/out/sigma',
        message:
          "padding-determining field 'sigma' takes param '$free', which declares no max; add \"max\" to the param so the canvas padding can be fixed at build time",
      },
    ]);
  });

  test('a $param with max bounds the padding: margin = ceil(3 * max)', () => {
    const plan = buildPlan(loadStyle(doc('$width')));
    expect(plan.nodes.get('s')!.margin).toBe(24);
    expect(plan.nodes.get('out')!.margin).toBe(0);
  });

  test('an @node port without <field>-max is a build error; with it the bound is used', () => {
    const p = problemsOf(() => buildPlan(loadStyle(doc('@k'))));
    expect(p[0]!.pointer).toBe('/nodes/out/sigma');
    expect(p[0]!.message).toMatch(/takes the node port '@k' but the node has no 'sigma-max'/);
    const plan = buildPlan(loadStyle(doc('@k', { 'sigma-max': 5 })));
    expect(plan.nodes.get('s')!.margin).toBe(15);
  });

  test('a port value above its bound is clamped at render time', async () => {
    // k = 6 > sigma-max 0.5: the blur runs with sigma 0.5, the padding fixed at build holds.
    const r = Renderer.create(doc('@k', { 'sigma-max': 0.5 }));
    const { raster } = await r.renderWindow({ z: 0, x0: 0, y0: 0, width: 8, height: 8, tileSize: 8 });
    expect(raster.data[3]).toBeCloseTo(1, 5);
  });
});

describe('build errors', () => {
  const build = (doc: object) => problemsOf(() => Renderer.create(doc));

  test('an input of the wrong kind names node, field, expected and actual kind', () => {
    const p = build({ output: 'out', nodes: { z: { op: 'zoom' }, out: { op: 'blur', input: '@z', sigma: 1 } } });
    expect(p).toEqual([{ pointer: '/nodes/out/input', message: "node 'out' field 'input' expects raster but 'z' produces scalar" }]);
  });

  test('a cycle is rejected, naming it', () => {
    const p = build({
      output: 'a',
      nodes: { a: { op: 'blur', input: '@b', sigma: 1 }, b: { op: 'blur', input: '@c', sigma: 1 }, c: { op: 'blur', input: '@a', sigma: 1 } },
    });
    expect(p).toHaveLength(1);
    expect(p[0]!.message).toMatch(/^the graph has a cycle: /);
    for (const n of ['@a', '@b', '@c']) expect(p[0]!.message).toContain(n);
  });

  test('an unknown node reference suggests the nearest name', () => {
    const p = build({ output: 'out', nodes: { shape: { op: 'solid', color: '#000000' }, out: { op: 'blur', input: '@shap', sigma: 1 } } });
    expect(p[0]).toEqual({ pointer: '/nodes/out/input', message: "'@shap' names no node; did you mean '@shape'?" });
  });

  test('the output must exist and produce a raster', () => {
    expect(build({ output: 'nope', nodes: { a: { op: 'zoom' } } })[0]!.message).toMatch(/output 'nope' names no node/);
    expect(build({ output: '@a', nodes: { a: { op: 'zoom' } } })[0]!.message).toBe("output '@a' produces scalar; the output must produce a raster");
  });

  test('a $param of the wrong type is rejected', () => {
    const p = build({ output: 'out', params: { n: { type: 'number', default: 1 } }, nodes: { out: { op: 'solid', color: '$n' } } });
    expect(p).toEqual([{ pointer: '/nodes/out/color', message: "param 'n' is a number but this field takes a color" }]);
  });

  test('an undeclared $param is rejected', () => {
    expect(build({ output: 'out', nodes: { out: { op: 'solid', color: '$nope' } } })[0]!.message).toMatch(/'\$nope' names no declared param/);
  });

  test('param declarations: v is reserved, defaults must sit inside min/max', () => {
    expect(() => Renderer.create({ output: 'out', params: { v: { type: 'number', default: 1 } }, nodes: { out: { op: 'solid', color: '#000000' } } })).toThrow(
      /'v' is reserved/,
    );
    const p = build({ output: 'out', params: { n: { type: 'number', default: 9, min: 0, max: 4 } }, nodes: { out: { op: 'solid', color: '#000000' } } });
    expect(p).toEqual([{ pointer: '/params/n/default', message: 'default 9 is above max 4' }]);
  });

  test('an invalid expression is a build error with the style-spec message', () => {
    const p = build({
      output: 'out',
      nodes: { e: { op: 'expr', expr: ['interpolate', ['linear'], ['zoom'], 0, 1, 'x', 2] }, out: { op: 'solid', color: '#000000' } },
    });
    expect(p[0]!.pointer).toBe('/nodes/e/expr');
  });

  test('an expr node is type-checked at build time', () => {
    const p = build({ output: 'out', nodes: { e: { op: 'expr', expr: ['zoom'], type: 'color' }, out: { op: 'solid', color: '#000000' } } });
    expect(p[0]!.message).toMatch(/invalid color expression/);
  });

  test('the error classes say which stage failed', () => {
    expect(() => Renderer.create({ output: 'out', nodes: { out: { op: 'solid' } } })).toThrow(StyleError);
    expect(() => Renderer.create({ output: 'x', nodes: { out: { op: 'solid', color: '#000000' } } })).toThrow(BuildError);
  });
});

describe('functions', () => {
  const fdoc = (call: Record<string, unknown>, fn: Record<string, unknown> = {}) => ({
    output: 'out',
    params: { s: { type: 'number', default: 1, max: 4 } },
    functions: {
      soften: {
        inputs: { src: { kind: 'raster' }, amount: { kind: 'scalar', default: 2 } },
        nodes: { b: { op: 'blur', input: '@src', sigma: '$amount' } },
        output: 'b',
        'output-kind': 'raster',
        ...fn,
      },
    },
    nodes: { base: { op: 'solid', color: '#ff0000' }, out: { op: 'func', function: 'soften', inputs: { src: '@base', ...call } } },
  });

  test('a call is inlined with private body names, structural arguments and defaults', () => {
    const plan = buildPlan(loadStyle(fdoc({})));
    expect(plan.output).toBe('out/b');
    expect(plan.nodes.get('out/b')!.spec.sigma).toBe(2);
    expect(plan.nodes.get('base')!.margin).toBe(6);
    const withParam = buildPlan(loadStyle(fdoc({ amount: '$s' })));
    expect(withParam.nodes.get('out/b')!.params).toEqual(new Set(['s']));
    expect(withParam.nodes.get('base')!.margin).toBe(12);
  });

  test('a missing input without default, an unknown input and a wrong output-kind are errors', () => {
    expect(problemsOf(() => buildPlan(loadStyle(fdoc({ src: undefined })))).some((p) => /missing input 'src'/.test(p.message))).toBe(true);
    expect(problemsOf(() => buildPlan(loadStyle(fdoc({ nope: 1 }))))[0]!.message).toBe("function 'soften' has no input 'nope'");
    expect(
      problemsOf(() => buildPlan(loadStyle(fdoc({}, { 'output-kind': 'features' })))).some((p) =>
        /declares output-kind features but its output produces raster/.test(p.message),
      ),
    ).toBe(true);
  });

  test('an argument of the wrong kind is rejected', () => {
    const doc = fdoc({});
    (doc.nodes as Record<string, unknown>).z = { op: 'zoom' };
    (doc.nodes.out as Record<string, unknown>).inputs = { src: '@z' };
    const p = problemsOf(() => buildPlan(loadStyle(doc)));
    expect(p.some((x) => x.message === "input 'src' of function 'soften' is a raster but '@z' produces scalar")).toBe(true);
  });

  test('recursion and unknown functions are rejected', () => {
    const rec = fdoc({}, { nodes: { b: { op: 'func', function: 'soften', inputs: { src: '@src' } } } });
    expect(problemsOf(() => buildPlan(loadStyle(rec))).some((p) => /calls itself/.test(p.message))).toBe(true);
    const doc = fdoc({});
    (doc.nodes.out as Record<string, unknown>).function = 'sharpen';
    expect(problemsOf(() => buildPlan(loadStyle(doc)))[0]!.message).toMatch(/unknown function 'sharpen'/);
  });

  test('two calls of one function do not share body nodes', () => {
    const doc = fdoc({});
    (doc.nodes as Record<string, unknown>).out2 = { op: 'func', function: 'soften', inputs: { src: '@base', amount: 1 } };
    (doc.nodes as Record<string, unknown>).mix = { op: 'blend', base: '@out', over: '@out2' };
    doc.output = 'mix';
    const plan = buildPlan(loadStyle(doc));
    expect(plan.nodes.get('out/b')!.spec.sigma).toBe(2);
    expect(plan.nodes.get('out2/b')!.spec.sigma).toBe(1);
  });
});
