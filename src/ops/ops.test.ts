// The op list is the one registry: every listed op is a complete folder. A raster op (one that can
// produce a raster or a scalar field on the GPU) has a CPU kernel, a GPU pass, a WGSL file, a golden
// case and a CPU/GPU parity test; every op has a test file beside it and a golden case that uses it.
// A missing piece fails here instead of being forgotten.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OP_LIST, OPS } from './index.js';
import type { NodeSpec, OpDef } from './types.js';
import type { Kind } from '../types.js';
import { unitOf } from '../style/fields.js';

const OPS_DIR = path.resolve('src/ops');
const GOLDEN = path.resolve('golden');

/** Every op named in a node of a golden style (top level and function bodies). */
function goldenOps(): Set<string> {
  const out = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o.op === 'string') out.add(o.op);
      Object.values(o).forEach(visit);
    }
  };
  for (const c of readdirSync(GOLDEN)) {
    const f = path.join(GOLDEN, c, 'style.json');
    if (existsSync(f)) visit(JSON.parse(readFileSync(f, 'utf8')));
  }
  return out;
}

/** The kinds an op can produce, over the variants its fields select. */
function outputs(op: OpDef): Set<Kind> {
  if (typeof op.output === 'string') return new Set([op.output]);
  const variants: NodeSpec[] = [{ op: op.name }, { op: op.name, kind: 'raster', output: 'raster' }, { op: op.name, kind: 'sprite', output: 'field' }];
  return new Set(variants.map((v) => (op.output as (n: NodeSpec) => Kind)(v)));
}

/** CPU-only ops: sampling, scalars and geometry, whose GPU renders upload the CPU result. */
const CPU_ONLY = new Set(['features', 'dem', 'raster', 'contour', 'math', 'zoom', 'expr', 'func']);
const isRasterOp = (op: OpDef) => !CPU_ONLY.has(op.name) && [...outputs(op)].some((k) => k === 'raster' || k === 'scalar-field');

describe('the op list', () => {
  const used = goldenOps();

  test('names are unique and every op folder is listed (a folder is an op)', () => {
    const names = OP_LIST.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    const folders = readdirSync(OPS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).sort()).toEqual([...OPS.keys()].sort());
  });

  for (const op of OP_LIST) {
    test(`${op.name}: a complete folder`, () => {
      const dir = path.join(OPS_DIR, op.name);
      const files = existsSync(dir) ? readdirSync(dir) : [];
      const testFile = files.includes(`${op.name}.test.ts`) ? readFileSync(path.join(dir, `${op.name}.test.ts`), 'utf8') : '';
      const have = {
        op: op.name,
        declaration: files.includes('index.ts'),
        // func is inlined by the builder: it never runs.
        cpu: op.name === 'func' || typeof op.cpu === 'function',
        test: testFile.length > 0,
        golden: used.has(op.name),
      };
      expect(have).toEqual({ op: op.name, declaration: true, cpu: true, test: true, golden: true });
      if (!isRasterOp(op)) return;
      const raster = {
        op: op.name,
        gpu: typeof op.gpu?.encode === 'function',
        gpuFile: files.includes('gpu.ts'),
        wgsl: files.some((f) => f.endsWith('.wgsl')),
        parity: /[dD]escribe\(\s*'[^']*CPU\/GPU parity/.test(testFile),
      };
      expect(raster).toEqual({ op: op.name, gpu: true, gpuFile: true, wgsl: true, parity: true });
    });
  }
});

// Units are declared on the fields (src/style/fields.ts `unit`), so @2x scales what each op
// declares in pixels; these rules catch a field that says pixels without declaring it.
describe('units of the fields', () => {
  const sayPixels = (f: string, s: Record<string, unknown>) => /(^|-)px($|-)/.test(f) || /\bpixels?\b|\bpx\b/i.test(String(s.description ?? ''));

  for (const op of OP_LIST) {
    test(`${op.name}: a field in pixels declares its unit; its -max and -expr declare the same`, () => {
      const problems: string[] = [];
      for (const [f, s] of Object.entries(op.fields)) {
        const unit = unitOf(s);
        if (sayPixels(f, s) && !unit) problems.push(`'${f}' speaks of pixels but declares no unit`);
        const base = f.replace(/-(max|expr)$/, '');
        if (base !== f && op.fields[base] && unitOf(op.fields[base]) !== unit && !(f.endsWith('-expr') && !unitOf(op.fields[base])))
          problems.push(`'${f}' declares ${unit ?? 'no unit'} but '${base}' declares ${unitOf(op.fields[base]) ?? 'none'}`);
        if (unit === 'px') {
          const numeric =
            s['x-expr'] === 'number' ||
            s.type === 'number' ||
            s.type === 'integer' ||
            (s.type === 'array' && (s.items as { type?: string })?.type === 'number') ||
            s['x-scalar'] === 'number';
          if (!numeric) problems.push(`'${f}' declares px but is not a number`);
        }
      }
      expect({ op: op.name, problems }).toEqual({ op: op.name, problems: [] });
    });
  }

  test('the pixel fields, op by op (issue 19: the list a reviewer checks against the docs)', () => {
    const px = Object.fromEntries(
      OP_LIST.map((op) => [op.name, Object.keys(op.fields).filter((f) => unitOf(op.fields[f]) === 'px')] as const).filter(([, f]) => f.length > 0),
    );
    expect(px).toEqual(PIXEL_FIELDS_BY_HAND);
  });
});

/** Written by hand from each op's docs (docs/ops.md, docs/format.md): what is a size on the map in pixels. */
const PIXEL_FIELDS_BY_HAND: Record<string, string[]> = {
  blur: ['sigma', 'sigma-max'],
  'brush-file': ['width-px'],
  'brush-solid': ['width-px'],
  buffer: ['distance', 'distance-max'],
  circles: ['radius', 'radius-max', 'stroke-width', 'stroke-width-max', 'radius-expr', 'stroke-width-expr'],
  dash: ['dash-px', 'gap-px', 'phase-px'],
  densify: ['target-px'],
  density: ['radius', 'radius-max', 'radius-expr'],
  dilate: ['radius-px', 'radius-px-max'],
  displace: ['amp-px', 'amp-x-px', 'amp-y-px', 'amp-px-max', 'amp-x-px-max', 'amp-y-px-max'],
  'dot-density': ['spacing-px'],
  erode: ['radius-px', 'radius-px-max'],
  'fill-pattern': ['scale', 'offset'],
  noise: ['scale-px'],
  stamp: ['scale', 'scale-expr', 'size-max'],
  stroke: ['scatter-px', 'scatter-px-max', 'width-max'],
  'stroke-solid': [
    'width',
    'width-max',
    'offset',
    'width-expr',
    'gap-width',
    'gap-width-max',
    'gap-width-expr',
    'blur',
    'blur-max',
    'blur-expr',
    'offset-max',
    'offset-expr',
    'dx',
    'dy',
    'dx-max',
    'dy-max',
  ],
  translate: ['dx', 'dy', 'dx-max', 'dy-max'],
  text: ['size', 'size-expr', 'size-max', 'halo-width', 'halo-blur', 'offset', 'max-width', 'letter-spacing', 'spacing', 'padding', 'max-extent'],
};
