// docs/testing.md names, for every golden case, its outside witness or that it rests on our own
// output only; this keeps that page true as cases come and go, and at least half witnessed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN } from './harness.js';

const doc = readFileSync(path.join(GOLDEN, '..', 'docs', 'testing.md'), 'utf8');
const cases = readdirSync(GOLDEN)
  .filter((d) => existsSync(path.join(GOLDEN, d, 'case.json')))
  .sort();

const section = (title: string) => {
  const start = doc.indexOf(title);
  const end = doc.indexOf('\n#', start + title.length);
  return doc.slice(start, end < 0 ? undefined : end);
};
const named = (text: string) => cases.filter((c) => new RegExp(`(^|[^\\w-])${c}([^\\w-]|$)`).test(text));

test('every golden case is listed once: with its witness, or as resting on our own output', () => {
  const table = section('## Golden cases with an outside witness')
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| Case') && !l.startsWith('|---'))
    .map((l) => l.split('|')[1]!)
    .join('\n');
  const witnessed = named(table);
  const own = named(section('### Cases that still rest on our own output only'));
  expect(witnessed.filter((c) => own.includes(c))).toEqual([]);
  expect(cases.filter((c) => !witnessed.includes(c) && !own.includes(c))).toEqual([]);
  expect(witnessed.length).toBeGreaterThanOrEqual(cases.length / 2);
  expect(doc).toContain(`**${witnessed.length} of the ${cases.length}**`);
});
