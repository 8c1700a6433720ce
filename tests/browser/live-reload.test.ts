// Live reload (issue 15 item 4): `serve --watch` pushes a reload to open previews through
// server-sent events; the page keeps its view and the values of params that still exist.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, decodePng, EXAMPLE_STYLE, saveArtifact, type Session, urlSearch } from './harness.js';
import { openWorkbench, previewState, settled, share } from './workbench-harness.js';

let s: Session;
let dir: string;
let file: string;

beforeAll(async () => {
  // Inside the repository (git-ignored): the style's npm: data ref resolves from its directory.
  mkdirSync(ARTIFACTS, { recursive: true });
  dir = mkdtempSync(path.join(ARTIFACTS, 'live-'));
  file = path.join(dir, 'style.json');
  copyFileSync(EXAMPLE_STYLE, file);
  s = await openWorkbench(file, { watch: true });
}, 120_000);

afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a style file change reloads the page with its view and the params that still exist', async () => {
  await s.page.goto(`${s.base}?border-width=2&shadow-opacity=0.2#map=3/10/20`);
  await settled(s.page);
  await s.page.waitForFunction(() => (window as unknown as { tilegraphPreview: { live: boolean } }).tilegraphPreview.live);
  const before = decodePng(await s.page.locator('#map').screenshot());
  expect(share(before, '#a9cfe6', 3)).toBeGreaterThan(0.05);

  // A new sea colour; 'shadow-opacity' is no longer a param (a literal instead).
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { params: Record<string, { default: unknown }>; nodes: Record<string, Record<string, unknown>> };
  doc.params['ocean']!.default = '#2255aa';
  delete doc.params['shadow-opacity'];
  doc.nodes['sea-shaded']!.opacity = 0.5;
  const reloaded = s.page.waitForEvent('load', { timeout: 30_000 });
  writeFileSync(file, JSON.stringify(doc, null, 2));
  await reloaded;
  await settled(s.page);
  const url = new URL(s.page.url());
  expect(url.search).toBe('?border-width=2');
  expect(url.hash).toMatch(/^#map=3\/10\/20/);
  await expect(s.page.locator('#params [data-param="border-width"] input.num').inputValue()).resolves.toBe('2');
  await expect(s.page.locator('#params [data-param="shadow-opacity"]').count()).resolves.toBe(0);
  await expect(s.page.locator('#status').evaluate((e) => e.classList.contains('is-error'))).resolves.toBe(false);
  const after = decodePng(await s.page.locator('#map').screenshot());
  saveArtifact('live-reload-after.png', await s.page.screenshot());
  expect(share(after, '#2255aa', 3)).toBeGreaterThan(0.05);
  expect(share(after, '#a9cfe6', 3)).toBe(0);
  expect((await previewState(s.page)).zoom).toBeCloseTo(3, 5);

  // A broken edit keeps the page (and the server) on the last good version, and says so.
  writeFileSync(file, '{ "nodes": ');
  await s.page.waitForFunction(() => /does not load/.test(document.getElementById('status')!.textContent ?? ''), undefined, { timeout: 30_000 });
  expect(await urlSearch(s.page, '?border-width=2')).toBe('?border-width=2');
  expect(s.consoleErrors).toEqual([]);
});
