// Per-tile errors on the workbench (issue 15 item 2): a tile that fails shows its message in the
// status line, counted per tile, and the message clears once those tiles render. Also: params
// with a `label` and a `group` (issue 15 item 3).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, type Session } from './harness.js';
import { openWorkbench, previewState, settled } from './workbench-harness.js';

let s: Session;
let dir: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(path.join(ARTIFACTS, 'errors-'));
  writeFileSync(
    path.join(dir, 'style.json'),
    JSON.stringify({
      name: 'Late data',
      output: 'out',
      params: {
        land: { type: 'color', default: '#d2b48c', label: 'Land colour', group: 'Colours' },
        opacity: { type: 'number', default: 1, min: 0, max: 1, label: 'Land opacity', group: 'Land' },
        outline: { type: 'bool', default: false },
      },
      // The data file does not exist yet: every tile fails until it does.
      sources: { shapes: { type: 'geojson', data: 'late.geojson' } },
      nodes: {
        shapes: { op: 'features', source: 'shapes' },
        sea: { op: 'solid', color: '#a9cfe6' },
        land: { op: 'fill-solid', features: '@shapes', fill: '$land', 'fill-alpha': '$opacity' },
        out: { op: 'blend', base: '@sea', over: '@land' },
      },
    }),
  );
  s = await openWorkbench(path.join(dir, 'style.json'));
}, 120_000);

afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('failing tiles are counted in the status line, and the message clears when they render', async () => {
  await s.page.goto(s.base);
  await s.page.waitForFunction(() => (window as unknown as { tilegraphPreview: { errors: string[] } }).tilegraphPreview.errors.length > 0, undefined, {
    timeout: 60_000,
  });
  await settled(s.page, 0, true);
  const st = await previewState(s.page);
  expect(st.errors).toHaveLength(1); // one message, however many tiles share it
  expect(st.errors[0]).toMatch(/source 'shapes': cannot read 'late\.geojson'/);
  await expect(s.page.locator('#status').textContent()).resolves.toMatch(/^\d+ tiles failed: source 'shapes': cannot read 'late\.geojson'/);
  await expect(s.page.locator('#status').evaluate((e) => e.classList.contains('is-error'))).resolves.toBe(true);

  // The data arrives; the next render of those tiles succeeds and the error goes away.
  writeFileSync(
    path.join(dir, 'late.geojson'),
    JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [-40, -30],
                [40, -30],
                [0, 50],
                [-40, -30],
              ],
            ],
          },
        },
      ],
    }),
  );
  const g = st.generation;
  await s.page.locator('#params [data-param="land"] input.hex').fill('#884422');
  await s.page.locator('#params [data-param="land"] input.hex').press('Enter');
  await settled(s.page, g + 1);
  expect((await previewState(s.page)).errors).toEqual([]);
  await expect(s.page.locator('#status').textContent()).resolves.toBe('Rendering in this browser (CPU, in a worker)');
  await expect(s.page.locator('#status').evaluate((e) => e.classList.contains('is-error'))).resolves.toBe(false);
});

test('params show their label and sit under their group heading; ungrouped params come first', async () => {
  const layout = await s.page.locator('#params').evaluate((form) =>
    Array.from(form.children).map((c) =>
      c.tagName === 'FIELDSET'
        ? {
            group: c.querySelector('legend')!.textContent,
            params: Array.from(c.querySelectorAll('[data-param]')).map((p) => [(p as HTMLElement).dataset.param, p.querySelector('label')!.textContent]),
          }
        : { param: (c as HTMLElement).dataset.param, label: c.querySelector('label')?.textContent },
    ),
  );
  expect(layout).toEqual([
    { param: 'outline', label: 'outline' },
    { group: 'Colours', params: [['land', 'Land colour']] },
    { group: 'Land', params: [['opacity', 'Land opacity']] },
  ]);
  // The name (the URL and --param key) is on the label's hover text.
  await expect(s.page.locator('#params [data-param="land"] label').getAttribute('title')).resolves.toBe('land');
});
