// The op list is the one registry: every listed op is a complete folder. A raster op (one that can
// produce a raster or a scalar field on the GPU) has a CPU kernel, a GPU pass, a WGSL file, a golden
// case and a CPU/GPU parity test; every op has a test file beside it and a golden case that uses it.
// A missing piece fails here instead of being forgotten.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { OP_LIST, OPS } from './index.js';
import type { NodeSpec, OpDef } from './types.js';
import type { Kind } from '../types.js';

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
const CPU_ONLY = new Set(['features', 'dem', 'contour', 'math', 'zoom', 'expr', 'func']);
const isRasterOp = (op: OpDef) => !CPU_ONLY.has(op.name) && [...outputs(op)].some((k) => k === 'raster' || k === 'scalar-field');

describe('the op list', () => {
  const used = goldenOps();

  test('names are unique and all 41 ops of the format are listed', () => {
    const names = OP_LIST.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    expect(OPS.size).toBe(41);
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
