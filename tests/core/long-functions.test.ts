// One job per function (issue 22): no function in src/ is longer than 120 lines, measured by
// scripts/long-functions.mjs with the TypeScript compiler's own parse (a function's first token to
// its closing brace, nested closures included; test files and the built src/generated/ left out).
// A failure lists each function over the limit, longest first: split it where its jobs part.
import { longFunctions } from '../../scripts/long-functions.mjs';

const MAX_LINES = 120;

test(`no function in src/ is longer than ${MAX_LINES} lines`, () => {
  const over = longFunctions(undefined, MAX_LINES).map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`);
  expect(over).toEqual([]);
});

test('the measure sees functions of every form, nested ones too', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const dir = mkdtempSync(path.join(tmpdir(), 'long-functions-'));
  try {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');
    writeFileSync(
      path.join(dir, 'a.ts'),
      [
        `export function longOne(): number {\n  let x = 0;\n${body(10)}\n  return x;\n}`,
        `export const arrow = () => {\n  let x = 0;\n${body(3)}\n  return x;\n};`,
        `class K {\n  method(): number {\n    let x = 0;\n${body(8)}\n    return x;\n  }\n}`,
      ].join('\n'),
    );
    writeFileSync(path.join(dir, 'a.test.ts'), `export function inATest() {\n${body(50)}\n}`);
    const found = longFunctions(dir, 10).map((f) => `${f.name} ${f.lines}`);
    // longOne: 10 body lines + let + return + 2 braces; method: 8 + 4 lines; arrow (6) and the test file's function are not listed.
    expect(found).toEqual(['longOne 14', 'method 12']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
