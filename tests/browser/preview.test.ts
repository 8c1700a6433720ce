// The preview page at / in chromium: loads clean, builds its panel from the params schema, re-renders
// in the browser when a control moves, keeps params in the URL, and compares with server tiles.
import type { Page } from 'playwright-core';
import { compareRGBA } from '../helpers/compare.js';
import { decodePng, httpGet, openSession, pageReady, saveArtifact, type Session, urlParam, urlSearch } from './harness.js';

let s: Session;
const tileRequests: string[] = [];

beforeAll(async () => {
  s = await openSession();
  s.page.on('request', (r) => {
    if (r.url().includes('/tiles/')) tileRequests.push(r.url());
  });
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** Wait until the page's map has re-requested its tiles `generation` times and loaded them all. */
async function settled(page: Page, generation = 0): Promise<void> {
  await pageReady(page, s.consoleErrors);
  await page.waitForFunction(
    (g) => {
      const t = (window as unknown as { tilegraphPreview: { map?: { areTilesLoaded(): boolean }; generation: number; idleGeneration: number } })
        .tilegraphPreview;
      return !!t.map && t.generation >= g && t.idleGeneration === t.generation && t.map.areTilesLoaded();
    },
    generation,
    { timeout: 90_000 },
  );
  // Tiles that failed to render (the page shows them in its status line).
  expect(await page.evaluate(() => (window as unknown as { tilegraphPreview: { errors: string[] } }).tilegraphPreview.errors)).toEqual([]);
}

const generation = (page: Page) => page.evaluate(() => (window as unknown as { tilegraphPreview: { generation: number } }).tilegraphPreview.generation);

async function mapShot(name: string) {
  const png = await s.page.locator('#map').screenshot();
  saveArtifact(name, png);
  return decodePng(png);
}

/** Share of pixels within `tol` of an sRGB colour. */
function share(img: { data: Uint8Array }, hex: string, tol = 6): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) if (c.every((v, k) => Math.abs(img.data[i + k]! - v) <= tol)) n++;
  return n / (img.data.length / 4);
}

let borderWide: { width: number; height: number; data: Uint8Array };
let defaultMap: { width: number; height: number; data: Uint8Array };

test('the page loads with no console errors and renders the example map in the browser', async () => {
  await s.page.goto(s.base);
  await settled(s.page);
  saveArtifact('preview.png', await s.page.screenshot());
  expect(s.consoleErrors).toEqual([]);
  await expect(s.page.locator('#status').textContent()).resolves.toMatch(/^Rendering in this browser \(CPU, in a worker\)$/);
  expect(tileRequests).toEqual([]); // every tile so far came from the in-browser renderer
  const map = (defaultMap = await mapShot('preview-map.png'));
  // The world at zoom 1: mostly sea, a good deal of land, in the style's default colours.
  expect(share(map, '#a9cfe6')).toBeGreaterThan(0.25);
  expect(share(map, '#f3efe2')).toBeGreaterThan(0.1);
  await expect(s.page.locator('#legend-title').textContent()).resolves.toBe('World');
  await expect(s.page.locator('#legend-entries .legend-label').allTextContents()).resolves.toEqual(['Land', 'Country border', 'Country name']);
  await expect(s.page.locator('#legend-note').textContent()).resolves.toBe('Natural Earth 1:110m countries.');
  // Each entry's swatch: its node drawn over a stand-in feature (land fill; a border line).
  const swatches = await s.page.locator('#legend-entries canvas.legend-swatch').evaluateAll((els) =>
    els.map((c) => {
      const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 20, 20).data;
      let opaque = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i]! > 40) opaque++;
      return { opaque, centre: Array.from(d.slice((10 * 20 + 10) * 4, (10 * 20 + 10) * 4 + 4)) };
    }),
  );
  expect(swatches).toHaveLength(3);
  expect(swatches[0]!.centre).toEqual([0xf3, 0xef, 0xe2, 255]);
  expect(swatches[1]!.opaque).toBeGreaterThan(10);
  expect(swatches[1]!.opaque).toBeLessThan(200);
  // The country name: a sample label ('Peru') over the stand-in polygon's pole.
  expect(swatches[2]!.opaque).toBeGreaterThan(10);
  await expect(s.page.locator('.maplibregl-ctrl-attrib-inner').textContent()).resolves.toContain('Made with Natural Earth (public domain), via world-atlas');
});

test('the panel has one control per param, with the right type, range, default, label and help', async () => {
  const schema = (await httpGet(s.base + 'style/params')).json<{
    properties: Record<string, { type: string; minimum?: number; maximum?: number; default: unknown; description?: string }>;
  }>();
  const names = Object.keys(schema.properties);
  await expect(s.page.locator('#params [data-param]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.param))).resolves.toEqual(names);
  for (const [name, p] of Object.entries(schema.properties)) {
    const box = s.page.locator(`#params [data-param="${name}"]`);
    const first = box.locator('input').first();
    await expect(box.locator('label').first().textContent()).resolves.toBe(name);
    // The label names the control, the description is its help text.
    const labelled = await first.evaluate((i: HTMLInputElement) => ({
      label: i.labels?.[0]?.textContent,
      help: (i.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join('|'),
    }));
    expect(labelled.label).toBe(name);
    if (p.description) expect(labelled.help).toContain(p.description);
    if (p.type === 'number' && p.minimum !== undefined && p.maximum !== undefined) {
      // A slider and a number box beside it.
      await expect(box.locator('input').count()).resolves.toBe(2);
      await expect(box.locator('input.num').inputValue()).resolves.toBe(String(p.default));
      const a = await first.evaluate((i: HTMLInputElement) => ({ type: i.type, min: i.min, max: i.max, value: i.value, step: Number(i.step) }));
      expect(a).toEqual({ type: 'range', min: String(p.minimum), max: String(p.maximum), value: String(p.default), step: expect.any(Number) });
      expect(a.step).toBeGreaterThan(0);
      expect(a.step).toBeLessThanOrEqual((p.maximum - p.minimum) / 10);
    } else if (p.type === 'number') {
      await expect(first.getAttribute('class')).resolves.toBe('num');
      await expect(first.inputValue()).resolves.toBe(String(p.default));
    } else if (p.type === 'boolean') {
      await expect(first.getAttribute('type')).resolves.toBe('checkbox');
      await expect(first.isChecked()).resolves.toBe(p.default);
    } else {
      await expect(box.locator('input').count()).resolves.toBe(2);
      await expect(first.getAttribute('type')).resolves.toBe('color');
      await expect(first.inputValue()).resolves.toBe(String(p.default).slice(0, 7));
      await expect(box.locator('input.hex').inputValue()).resolves.toBe(p.default);
    }
  }
});

test('moving a slider re-renders the map in the browser and puts the value in the URL', async () => {
  const before = await mapShot('preview-before-slider.png');
  const g = await generation(s.page);
  const slider = s.page.locator('#params [data-param="border-width"] input[type=range]');
  await slider.focus();
  await s.page.keyboard.press('End'); // a keyboard user moves the slider to its max
  await expect(slider.inputValue()).resolves.toBe('4');
  await settled(s.page, g + 1);
  borderWide = await mapShot('preview-border-width-4.png');
  const cmp = compareRGBA(borderWide.data, before.data, before.width, before.height);
  expect(cmp.badFraction).toBeGreaterThan(0.01); // 4 px borders instead of 0.8 px: many pixels change
  expect(share(borderWide, '#8a7f6a', 10)).toBeGreaterThan(share(before, '#8a7f6a', 10) * 2);
  expect(await urlSearch(s.page, '?border-width=4')).toBe('?border-width=4');
  expect(tileRequests).toEqual([]);
  expect(s.consoleErrors).toEqual([]);
});

test('reloading the URL restores the params and the same pixels', async () => {
  await s.page.reload();
  await settled(s.page);
  await expect(s.page.locator('#params [data-param="border-width"] input[type=range]').inputValue()).resolves.toBe('4');
  await expect(s.page.locator('#params [data-param="border-width"] input.num').inputValue()).resolves.toBe('4');
  const again = await mapShot('preview-reloaded.png');
  expect(compareRGBA(again.data, borderWide.data, again.width, again.height).ok).toBe(true);
});

test('a fast drag ends on its last value: renders of superseded values never overwrite it', async () => {
  const g = await generation(s.page);
  await s.page.evaluate(async () => {
    (window as unknown as { tilegraphPreview: { trace?: unknown[] } }).tilegraphPreview.trace = [];
    const slider = document.querySelector<HTMLInputElement>('#params [data-param="border-width"] input[type=range]')!;
    for (let i = 0; i <= 16; i++) {
      slider.value = i === 16 ? '4' : (0.5 + i * 0.2).toFixed(1); // away from 4 and back to it
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      if (i % 4 === 3)
        await new Promise((r) => setTimeout(r, 0)); // some land while a render runs, some in one burst
      else await new Promise((r) => setTimeout(r, 6));
    }
  });
  await settled(s.page, g + 17);
  // 17 values x the tiles in view were asked for. A value is superseded, tile by tile, when the page asks
  // for that tile at the next value ('render' marks: key and params); its render ran only if a worker
  // had started it by then. How many ran depends on the workers (cores) and their speed, so the test
  // checks the rule itself: no superseded render started after the drop had time to reach its worker.
  const marks = await s.page.evaluate(() => {
    const t = (window as unknown as { tilegraphPreview: { trace?: [string, number, string?][] } }).tilegraphPreview;
    const m = t.trace ?? [];
    t.trace = undefined;
    return m;
  });
  const asked = marks.filter((m) => m[0] === 'render').map((m) => ({ at: m[1], key: m[2]!.split(' ')[0]!, q: m[2]!.split(' ')[1] ?? '' }));
  const ran = marks
    .filter((m) => m[0] === 'worker')
    .map((m) => {
      const [key, start, , q] = m[2]!.split(' ');
      return { key: key!, start: Number(start), q: q ?? '' };
    });
  expect(asked.length).toBeGreaterThanOrEqual(17 * 8);
  expect(ran.length).toBeGreaterThan(0);
  const supersededAt = (key: string, q: string) => {
    const mine = asked.findIndex((a) => a.key === key && a.q === q);
    return asked.slice(mine + 1).find((a) => a.key === key && a.q !== q)?.at ?? Infinity;
  };
  // A drop is a message to the worker; it is read before the worker's next render (worker.ts). 50 ms is
  // for that message on a loaded machine: a render takes longer than that, so a drop that was ignored shows.
  const late = ran.filter((r) => r.start > supersededAt(r.key, r.q) + 50);
  expect(late).toEqual([]);
  expect(ran.length).toBeLessThan(asked.length); // some superseded renders never ran
  const after = await mapShot('preview-after-drag.png');
  const cmp = compareRGBA(after.data, borderWide.data, after.width, after.height);
  expect({ badFraction: cmp.badFraction, ok: cmp.ok }).toEqual(expect.objectContaining({ ok: true }));
  expect(await urlSearch(s.page, '?border-width=4')).toBe('?border-width=4');
  expect(s.consoleErrors).toEqual([]);
});

test('a colour keeps its alpha through the picker, and a bad hex shows the server’s error', async () => {
  await s.page.goto(`${s.base}?land=%23ff000080`);
  await settled(s.page);
  const box = s.page.locator('#params [data-param="land"]');
  await expect(box.locator('input.hex').inputValue()).resolves.toBe('#ff000080');
  await expect(box.locator('input[type=color]').inputValue()).resolves.toBe('#ff0000');
  await box.locator('input[type=color]').fill('#00ff00');
  await expect(box.locator('input.hex').inputValue()).resolves.toBe('#00ff0080');
  expect(await urlParam(s.page, 'land', '#00ff0080')).toBe('#00ff0080');

  await box.locator('input.hex').fill('sand');
  await box.locator('input.hex').press('Enter');
  const served = (await httpGet(`${s.base}tiles/0/0/0.png?land=sand`)).json<{ details: { message: string }[] }>().details[0]!.message;
  await expect(box.locator('.error').textContent()).resolves.toBe(served);
  await expect(box.locator('input.hex').getAttribute('aria-invalid')).resolves.toBe('true');
  expect(await urlParam(s.page, 'land', '#00ff0080')).toBe('#00ff0080'); // the refused value changed nothing
});

test('the compare switch shows server-rendered tiles, which match the browser-rendered ones', async () => {
  await s.page.goto(`${s.base}?border-width=2&land=%23ddccaa&shadow=8`);
  await settled(s.page);
  const browser = await mapShot('preview-compare-browser.png');
  expect(tileRequests).toEqual([]);
  const g = await generation(s.page);
  await s.page.getByRole('switch', { name: 'Show server-rendered tiles' }).check();
  await settled(s.page, g + 1);
  const server = await mapShot('preview-compare-server.png');
  await expect(s.page.locator('#status').textContent()).resolves.toBe('Showing server-rendered tiles');
  expect(tileRequests.length).toBeGreaterThan(0);
  for (const u of tileRequests) expect(Object.fromEntries(new URL(u).searchParams)).toEqual({ 'border-width': '2', land: '#ddccaa', shadow: '8' });
  const cmp = compareRGBA(browser.data, server.data, browser.width, browser.height);
  expect({ ok: cmp.ok, badFraction: cmp.badFraction }).toEqual({ ok: true, badFraction: expect.any(Number) });
  expect(s.consoleErrors).toEqual([]);
});

test('reset to defaults restores every control and clears the URL', async () => {
  await s.page.getByRole('button', { name: 'Reset to defaults' }).click();
  await expect(s.page.locator('#params [data-param="border-width"] input.num').inputValue()).resolves.toBe('0.8');
  await expect(s.page.locator('#params [data-param="land"] input.hex').inputValue()).resolves.toBe('#f3efe2');
  await expect(s.page.locator('#params [data-param="shadow"] input.num').inputValue()).resolves.toBe('4');
  expect(await urlSearch(s.page, '')).toBe('');
});

test('#backend=gpu renders the page with WebGPU, the same map as the CPU worker', async () => {
  await s.page.goto('about:blank'); // a hash-only change would not reload the page
  await s.page.goto(`${s.base}#backend=gpu`);
  await settled(s.page);
  await expect(s.page.locator('#status').textContent()).resolves.toMatch(/^Rendering in this browser \(WebGPU, google swiftshader\)$/);
  const gpu = await mapShot('preview-webgpu.png');
  const cmp = compareRGBA(gpu.data, defaultMap.data, gpu.width, gpu.height);
  expect({ ok: cmp.ok, badFraction: cmp.badFraction }).toEqual({ ok: true, badFraction: expect.any(Number) });
  // MapLibre keeps its view in the same hash without dropping the page's own key.
  await s.page.evaluate(() =>
    (window as unknown as { tilegraphPreview: { map: { jumpTo(o: object): void } } }).tilegraphPreview.map.jumpTo({ center: [10, 50], zoom: 2 }),
  );
  await s.page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).get('map') === '2/50/10', undefined, { timeout: 10_000 });
  expect(new URLSearchParams(new URL(s.page.url()).hash.slice(1)).get('backend')).toBe('gpu');
  expect(s.consoleErrors).toEqual([]);
});

test('tiles render at the screen’s pixel density (#ratio=2 here: a headless screen is 1x)', async () => {
  expect(await s.page.evaluate(() => (window as unknown as { tilegraphPreview: { pixelRatio?: number } }).tilegraphPreview.pixelRatio)).toBe(1);
  await s.page.goto('about:blank');
  await s.page.goto(`${s.base}#ratio=2`);
  await settled(s.page);
  expect(await s.page.evaluate(() => (window as unknown as { tilegraphPreview: { pixelRatio?: number } }).tilegraphPreview.pixelRatio)).toBe(2);
  // 512 px tiles shown at 256 CSS px: the same map, sharper (borders 1.6 px drawn, shown at 0.8).
  const dense = await mapShot('preview-ratio-2.png');
  let far = 0;
  for (let i = 0; i < dense.data.length; i += 4) {
    const d = Math.max(...[0, 1, 2].map((c) => Math.abs(dense.data[i + c]! - defaultMap.data[i + c]!)));
    if (d > 48) far++;
  }
  expect(far / (dense.width * dense.height)).toBeLessThan(0.02);
  expect(s.consoleErrors).toEqual([]);
});
