// The workbench's labels (issue 20), in headless chromium on the world example: a click on a placed
// country name lists its text node, its text and its feature's properties; "Show label boxes" draws
// the candidates' and the placed labels' boxes over the map, in their two colours (read back from
// Chromium's own screenshot of the map, decoded by pngjs).
import type { Page } from 'playwright-core';
import { decodePng, EXAMPLE_STYLE, saveArtifact, type Session } from './harness.js';
import { openWorkbench, settled, share } from './workbench-harness.js';

let s: Session;

beforeAll(async () => {
  s = await openWorkbench(EXAMPLE_STYLE);
  await s.page.goto(s.base);
  await settled(s.page);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

interface LabelsGlobal {
  tilegraphPreview: {
    map: { project(l: [number, number]): { x: number; y: number } };
    labels?: { node: string; text: string; properties: Record<string, unknown> }[];
    labelBoxes?: { z: number; candidates: number; placed: number };
  };
}

async function clickAt(page: Page, lng: number, lat: number): Promise<void> {
  const p = await page.evaluate(([x, y]) => (window as unknown as LabelsGlobal).tilegraphPreview.map.project([x!, y!]), [lng, lat]);
  const box = (await page.locator('#map').boundingBox())!;
  await page.mouse.click(box.x + p.x, box.y + p.y);
}

const labels = (page: Page) => page.evaluate(() => (window as unknown as LabelsGlobal).tilegraphPreview.labels);

async function clickForLabels(page: Page, lng: number, lat: number) {
  await page.evaluate(() => {
    (window as unknown as LabelsGlobal).tilegraphPreview.labels = undefined;
  });
  await clickAt(page, lng, lat);
  await page.waitForFunction(() => (window as unknown as LabelsGlobal).tilegraphPreview.labels !== undefined);
  return labels(page);
}

describe('labels in the workbench (world example)', () => {
  test('clicking a placed country name lists its text node, its text and its feature; the open sea lists none', async () => {
    await expect(s.page.locator('#labels').isVisible()).resolves.toBe(true);
    // Brazil's name sits at its pole of inaccessibility, about 49.0 W 11.9 S (z2, DejaVu Sans 10 px).
    expect(await clickForLabels(s.page, -49.04, -11.87)).toEqual([{ node: 'names', text: 'Brazil', properties: { name: 'Brazil' } }]);
    await expect(s.page.locator('#labels-here h3').textContent()).resolves.toBe('names · “Brazil”');
    await expect(s.page.locator('#labels-here td').first().textContent()).resolves.toBe('Brazil');
    // The South Atlantic, clear of the features popup that opened above Brazil.
    expect(await clickForLabels(s.page, -20, -45)).toEqual([]);
    await expect(s.page.locator('#labels-here').textContent()).resolves.toBe('No label here.');
    expect(s.consoleErrors).toEqual([]);
  });

  test('"Show label boxes" draws candidate boxes and placed boxes in their colours; off removes them', async () => {
    const before = decodePng(await s.page.locator('#map').screenshot());
    expect(share(before, '#00a838', 40)).toBe(0);
    await s.page.getByRole('switch', { name: 'Show label boxes' }).check();
    await s.page.waitForFunction(() => (window as unknown as LabelsGlobal).tilegraphPreview.labelBoxes !== undefined);
    const st = await s.page.evaluate(() => (window as unknown as LabelsGlobal).tilegraphPreview.labelBoxes!);
    expect(st.z).toBe(2);
    expect(st.placed).toBeGreaterThan(20);
    expect(st.candidates).toBeGreaterThan(st.placed);
    const png = await s.page.locator('#map').screenshot();
    saveArtifact('workbench-label-boxes.png', png);
    const on = decodePng(png);
    expect(share(on, '#00a838', 40)).toBeGreaterThan(0.002); // placed: solid green
    expect(share(on, '#ff6a00', 40)).toBeGreaterThan(0.0002); // candidates not placed: dashed orange
    await s.page.getByRole('switch', { name: 'Show label boxes' }).uncheck();
    await expect(s.page.evaluate(() => (window as unknown as LabelsGlobal).tilegraphPreview.labelBoxes)).resolves.toBeUndefined();
    const off = decodePng(await s.page.locator('#map').screenshot());
    expect(share(off, '#00a838', 40)).toBe(0);
    expect(s.consoleErrors).toEqual([]);
  });
});
