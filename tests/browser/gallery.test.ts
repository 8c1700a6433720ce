// The gallery (`tilegraph serve --style examples`, what `npm start` serves) in chromium: the index
// lists every style, and each style's preview renders its tiles in the browser with no error.
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodePng, openSession, pageReady, ROOT, saveArtifact, type Session } from './harness.js';

let s: Session;

beforeAll(async () => {
  s = await openSession(path.join(ROOT, 'examples'));
}, 120_000);

afterAll(async () => {
  await s?.close();
});

async function settled(page: Page): Promise<string[]> {
  await pageReady(page, s.consoleErrors);
  await page.waitForFunction(
    () => {
      const t = (window as unknown as { tilegraphPreview: { map?: { areTilesLoaded(): boolean }; generation: number; idleGeneration: number } })
        .tilegraphPreview;
      return !!t.map && t.idleGeneration === t.generation && t.map.areTilesLoaded();
    },
    undefined,
    { timeout: 120_000 },
  );
  return page.evaluate(() => (window as unknown as { tilegraphPreview: { errors: string[] } }).tilegraphPreview.errors);
}

test('the index lists every example style with a thumbnail that loads', async () => {
  await s.page.goto(s.base);
  const cards = await s.page.locator('a.card').evaluateAll((els) => els.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
  expect(cards).toEqual(expect.arrayContaining(['styles/handdrawn/', 'styles/heatmap/', 'styles/toner/', 'styles/watercolor/', 'styles/world/']));
  await s.page.waitForFunction(() => Array.from(document.images).every((i) => i.complete), undefined, { timeout: 120_000 });
  // Styles whose data ships with the install (others, e.g. ones reading a public URL, may be offline here).
  const sizes = await s.page
    .locator('a.card')
    .evaluateAll((els) => Object.fromEntries(els.map((a) => [a.getAttribute('href'), (a.querySelector('img') as HTMLImageElement).naturalWidth])));
  for (const id of ['handdrawn', 'heatmap', 'toner', 'watercolor', 'world']) expect([id, sizes[`styles/${id}/`]]).toEqual([id, 256]);
  saveArtifact('gallery-index.png', await s.page.screenshot());
}, 180_000);

test('each card says what the style shows and where; a thumbnail the server cannot render shows its error (issue 23)', async () => {
  // The terrain thumbnail as the server answers when the AWS tiles are unreachable.
  const body = {
    error: "source 'terrain' failed",
    source: 'terrain',
    details: [
      { field: '/sources/terrain', message: "source 'terrain': cannot fetch https://s3.amazonaws.com/elevation-tiles-prod/terrarium/2/0/1.png: unknown host" },
    ],
  };
  await s.page.route('**/styles/terrain/tiles/**', (route) => route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify(body) }));
  try {
    await s.page.goto(s.base);
    const cards = await s.page
      .locator('a.card')
      .evaluateAll((els) => els.map((a) => ({ id: a.getAttribute('href')!.split('/')[1]!, about: a.querySelector('.about')?.textContent ?? '' })));
    for (const { id, about } of cards) {
      // A MapLibre style carries its description in metadata["tilegraph:graph"] (docs/maplibre.md).
      const doc = JSON.parse(readFileSync(path.join(ROOT, 'examples', id, 'style.json'), 'utf8')) as {
        description?: string;
        metadata?: { 'tilegraph:graph'?: { description?: string } };
      };
      expect({ id, about }).toEqual({ id, about: doc.description ?? doc.metadata?.['tilegraph:graph']?.description });
    }
    const failed = s.page.locator('a.card[href="styles/terrain/"] .failed');
    await failed.waitFor({ state: 'visible', timeout: 60_000 });
    await expect(failed.textContent()).resolves.toBe(`No thumbnail: HTTP 502: ${body.details[0]!.message}`);
    await expect(s.page.locator('a.card[href="styles/terrain/"] img').isHidden()).resolves.toBe(true);
    saveArtifact('gallery-index-failed-thumbnail.png', await s.page.screenshot({ fullPage: true }));
  } finally {
    await s.page.unroute('**/styles/terrain/tiles/**');
  }
}, 180_000);

// A view inside each style's data (the street styles' tiles start at z13 / z15), and a colour
// that must cover part of it when the tiles really drew: [hash, rgb, tolerance].
const VIEWS: Record<string, [string, string]> = {
  handdrawn: ['map=13.6/41.884/-87.622', '#2f2f38'], // pencil
  heatmap: ['map=14.6/37.7655/-122.448', '#ffffbf'], // the ramp's middle stop
  toner: ['map=12.6/41.884/-87.622', '#000000'], // ink
  watercolor: ['map=2.2/48/12', '#eccb92'], // land wash (mottled: near it)
  world: ['', '#a9cfe6'], // sea
  stipple: ['map=3.5/42/-100', '#f6f1e4'], // land
};

for (const [id, [hash, colour]] of Object.entries(VIEWS)) {
  test(`${id}: the preview renders its tiles in the browser with no error, its params as controls`, async () => {
    const before = s.consoleErrors.length;
    await s.page.goto(`${s.base}styles/${id}/${hash ? '#' + hash : ''}`);
    expect(await settled(s.page)).toEqual([]);
    expect(s.consoleErrors.slice(before)).toEqual([]);
    const controls = await s.page.locator('#params input').count();
    expect(controls).toBeGreaterThan(0);
    const png = await s.page.locator('#map').screenshot();
    saveArtifact(`gallery-${id}.png`, png);
    // The style's data was drawn: part of the map is near its telltale colour.
    const img = decodePng(png);
    const c = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    let near = 0;
    for (let i = 0; i < img.data.length; i += 4) if (c.every((v, k) => Math.abs(img.data[i + k]! - v) <= 40)) near++;
    expect({ id, share: near / (img.data.length / 4) > 0.01 }).toEqual({ id, share: true });
  }, 240_000);
}
