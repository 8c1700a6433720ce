#!/usr/bin/env node
/**
 * Lists the functions in src/ longer than a limit (issue 22: one job per function).
 *
 *   node scripts/long-functions.mjs [--max 120] [--all] [dir]
 *
 * A function is anything with a body that the TypeScript compiler parses as one: a function
 * declaration or expression, an arrow function, a method, a constructor, an accessor. Its length
 * is the lines from its first token to its closing brace, both included, the lines of functions
 * nested in it too (a closure is part of what its parent does). Test files (`*.test.ts`) and the
 * built `src/generated/` are left out: a test file's `describe` callbacks are lists of cases, not
 * one job. Prints `path:line name lines` for each function over the limit, longest first (all of
 * them, longest first, with --all), and exits 1 when any is over it.
 *
 * `longFunctions(dir, max)` is what tests/core/long-functions.test.ts calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The TypeScript files below dir, tests and generated files left out. */
function sourceFiles(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'generated' && e.name !== 'node_modules') out.push(...sourceFiles(p));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) {
      out.push(p);
    }
  }
  return out;
}

/** A readable name for a function node: its declared name, or what it is assigned or passed to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && ts.isStringLiteral(node.name)) return node.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if (p && ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) return p.name.text;
  if (p && ts.isPropertyDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (p && ts.isCallExpression(p)) {
    const callee = p.expression.getText();
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}...` : callee})`;
  }
  return '(anonymous)';
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function in one file: { file, line, name, lines }. */
export function functionsOf(path, root = ROOT) {
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file: relative(root, path), line: first + 1, name: nameOf(node), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The functions below dir (default src/) longer than max lines, longest first. */
export function longFunctions(dir = join(ROOT, 'src'), max = 120) {
  return sourceFiles(dir)
    .flatMap((f) => functionsOf(f))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  let max = 120;
  let all = false;
  let dir = join(ROOT, 'src');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--max') max = Number(args[++i]);
    else if (args[i] === '--all') all = true;
    else dir = args[i];
  }
  const over = longFunctions(dir, all ? 0 : max);
  for (const f of over) console.log(`${f.file}:${f.line} ${f.name} ${f.lines}`);
  const n = over.filter((f) => f.lines > max).length;
  console.error(`${n} function${n === 1 ? '' : 's'} over ${max} lines`);
  process.exit(n > 0 ? 1 : 0);
}
