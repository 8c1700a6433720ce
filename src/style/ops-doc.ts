// Markdown reference of every op, generated from the op modules (docs/ops.md is this text;
// a test keeps it in step with the code).
import { OPS } from '../ops/index.js';
import { UNITS, unitOf, type Schema } from './fields.js';

function describeField(s: Schema): string {
  if (s['x-expr']) return `expression (${String(s['x-expr'])})`;
  if (s['x-node']) return '@node';
  const parts: string[] = [];
  const expect = s['x-expect'] as string | undefined;
  if (expect) parts.push(expect);
  else if (s.type === 'array') parts.push(`array${s.minItems ? ` (min ${String(s.minItems)} items)` : ''}`);
  else if (s.type) parts.push(String(s.type));
  else parts.push('any');
  return parts.join('; ');
}

export function opsMarkdown(): string {
  const lines: string[] = [
    '# Ops reference',
    '',
    'Generated from `src/ops/<op>/index.ts` by `npm run build` (`scripts/gen-schema.mjs`); do not edit by hand. Committed, unlike the other generated files, so that it reads where the other docs are read (the repository, the npm package); `tests/core/style.test.ts` fails when it is stale.',
    '',
  ];
  const names = [...OPS.keys()].sort();
  lines.push(
    '## Units',
    '',
    'A numeric field may declare its unit (`x-unit` in the JSON Schema, as MapLibre\'s style spec says `"units"`). At a pixel ratio (`@2x` tiles, `--pixel-ratio`) every `px` field is multiplied by the ratio; the others never are (docs/format.md, Pixel ratio).',
    '',
    '| unit | meaning |',
    '|---|---|',
    ...Object.entries(UNITS).map(([u, m]) => `| \`${u}\` | ${m} |`),
    '',
    '## Ops',
    '',
  );
  lines.push('| op | produces | runs as |', '|---|---|---|');
  for (const n of names) {
    const op = OPS.get(n)!;
    const out = typeof op.output === 'function' ? 'depends on fields' : op.output;
    lines.push(`| [\`${n}\`](#${n}) | ${out} | ${op.gpu ? 'CPU + WGSL' : 'CPU (both backends)'} |`);
  }
  for (const n of names) {
    const op = OPS.get(n)!;
    lines.push('', `## ${n}`, '', op.description + '.', '');
    const fields = Object.entries(op.fields);
    if (!fields.length) {
      lines.push('No fields.');
      continue;
    }
    lines.push('| field | required | value | unit | default | notes |', '|---|---|---|---|---|---|');
    for (const [f, s] of fields) {
      const req = op.required?.includes(f) ? 'yes' : '';
      const kinds = op.inputs[f] ? `input: ${op.inputs[f]!.join(' or ')}` : '';
      const pad = op.paddingFields?.includes(f) ? 'padding-determining: needs a static bound' : '';
      const d = s.default !== undefined ? `\`${JSON.stringify(s.default)}\`` : '';
      const unit = unitOf(s);
      const notes = [kinds, pad, (s.description as string | undefined) ?? ''].filter(Boolean).join('; ');
      lines.push(
        `| \`${f}\` | ${req} | ${describeField(s).replace(/\|/g, '\\|')} | ${unit ? `[${unit}](#units)` : ''} | ${d} | ${notes.replace(/\|/g, '\\|')} |`,
      );
    }
  }
  return lines.join('\n') + '\n';
}
