// MapLibre GL JS's own render tests through the converter (witness: MapLibre's expected images,
// compared by MapLibre's harness rules in harness.ts). expectations.json lists every test that
// does not pass, with the reason; a test listed there that passes fails this suite too, so the
// list and the pass rates in docs/maplibre.md stay true. MAPLIBRE_OUT=<dir> writes actual images.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import { layerTypeOf, listTests, ROOT, runTest, type Outcome } from './harness.js';

const expectations = JSON.parse(readFileSync(path.join(ROOT, 'expectations.json'), 'utf8')) as Record<string, string>;
const ids = listTests();
const outcomes = new Map<string, Outcome>();
const out = process.env.MAPLIBRE_OUT;

afterAll(() => {
  // Pass rate per layer type, over every copied test (docs/maplibre.md publishes it).
  const rows = new Map<string, { pass: number; total: number }>();
  for (const o of outcomes.values()) {
    const r = rows.get(layerTypeOf(o.id)) ?? { pass: 0, total: 0 };
    r.total++;
    if (o.status === 'pass') r.pass++;
    rows.set(layerTypeOf(o.id), r);
  }
  const lines = [...rows].map(([t, r]) => `${t}: ${r.pass}/${r.total}`);
  console.log(`MapLibre render tests passed: ${lines.join(', ')}`);
  if (out)
    writeFileSync(
      path.join(out, 'results.json'),
      JSON.stringify(
        [...outcomes.values()].map(({ actual: _a, ...o }) => o),
        null,
        1,
      ),
    );
});

describe('MapLibre render tests', () => {
  test.each(ids)('%s', async (id) => {
    const o = await runTest(id);
    outcomes.set(id, o);
    if (out && o.actual) {
      const png = new PNG({ width: o.width!, height: o.height! });
      png.data = Buffer.from(o.actual.buffer, o.actual.byteOffset, o.actual.byteLength);
      mkdirSync(path.join(out, id), { recursive: true });
      writeFileSync(path.join(out, id, 'actual.png'), PNG.sync.write(png));
    }
    const summary =
      o.status === 'error' ? `error: ${o.reason}` : `${o.status}: ${(o.difference! * 100).toFixed(3)}% differ (allowed ${(o.allowed * 100).toFixed(3)}%)`;
    if (expectations[id] !== undefined) {
      // Listed as failing: it must still fail (else the list and the docs lie).
      expect({ id, passes: o.status === 'pass', summary }).toEqual({ id, passes: false, summary });
    } else {
      expect({ id, summary }).toEqual({ id, summary: summary.startsWith('pass') ? summary : 'pass' });
    }
  });
});
