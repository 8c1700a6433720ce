// Prints the pass-rate table of docs/maplibre.md from a run's results:
//   MAPLIBRE_OUT=/tmp/ml npx jest tests/maplibre && node tests/maplibre/report.mjs /tmp/ml/results.json
import { readFileSync } from 'node:fs';

const results = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const TYPES = ['background', 'fill', 'line', 'circle', 'heatmap', 'hillshade', 'raster', 'symbol', 'text', 'icon'];
const typeOf = (id) => TYPES.find((t) => id.split('/')[0].startsWith(t)) ?? 'other';
// Tests of what we do not claim: the camera (pitch, rotation) and operations outside a static style.
const unclaimed = (o) => o.status === 'error' && /rotates or tilts|operation '/.test(o.reason ?? '');
const rows = new Map();
for (const o of results) {
  const t = typeOf(o.id);
  const r = rows.get(t) ?? { pass: 0, claimed: 0, total: 0 };
  r.total++;
  if (!unclaimed(o)) r.claimed++;
  if (o.status === 'pass') r.pass++;
  rows.set(t, r);
}
const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(0)}%` : '-');
console.log('| layer type | tests | claimed | pass | pass rate of claimed |');
console.log('|---|---:|---:|---:|---:|');
let P = 0,
  C = 0,
  T = 0;
for (const [t, r] of [...rows].sort()) {
  console.log(`| ${t} | ${r.total} | ${r.claimed} | ${r.pass} | ${pct(r.pass, r.claimed)} |`);
  P += r.pass;
  C += r.claimed;
  T += r.total;
}
console.log(`| **all** | ${T} | ${C} | ${P} | **${pct(P, C)}** |`);
