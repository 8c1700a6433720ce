// Compare mode shows what the server answered (issue 23: a 502 or an undecodable server tile left
// the status at "Showing server-rendered tiles"). The failures are the server's own (a style whose
// data file is missing) and answers a test puts in the server's place (a 502 with the server's
// JSON error body, bytes that are no image); the status line counts the failed tiles and quotes
// the server's message.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, EXAMPLE_STYLE, type Session } from './harness.js';
import { openWorkbench, previewState, settled } from './workbench-harness.js';

let s: Session;

beforeAll(async () => {
  s = await openWorkbench(EXAMPLE_STYLE);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

const status = () => s.page.locator('#status').textContent();
const isError = () => s.page.locator('#status').evaluate((e) => e.classList.contains('is-error'));

async function compareOn(): Promise<void> {
  await s.page.goto(s.base);
  await settled(s.page);
  const g = (await previewState(s.page)).generation;
  await s.page.getByRole('switch', { name: 'Show server-rendered tiles' }).check();
  await settled(s.page, g + 1, true);
}

test("a 502 from the server: the status counts the failed tiles and quotes the server's error", async () => {
  const body = {
    error: "source 'countries' failed",
    source: 'countries',
    details: [{ field: '/sources/countries', message: "source 'countries': cannot fetch https://example.invalid/c.json: unknown host" }],
  };
  await s.page.route('**/tiles/**', (route) => route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify(body) }));
  try {
    await compareOn();
    const st = await previewState(s.page);
    expect(st.errors).toEqual(["HTTP 502: source 'countries': cannot fetch https://example.invalid/c.json: unknown host"]);
    await expect(status()).resolves.toMatch(
      /^\d+ server tiles failed: HTTP 502: source 'countries': cannot fetch https:\/\/example\.invalid\/c\.json: unknown host$/,
    );
    await expect(isError()).resolves.toBe(true);
  } finally {
    await s.page.unroute('**/tiles/**');
  }
});

test('a server tile that is no image is counted and named', async () => {
  await s.page.route('**/tiles/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: 'not a png at all' }));
  try {
    await compareOn();
    const st = await previewState(s.page);
    expect(st.errors.length).toBeGreaterThan(0);
    for (const e of st.errors) expect(e).toMatch(/^the server's tile \d+\/\d+\/\d+ is not an image this browser decodes \(image\/png, 16 bytes\)$/);
    await expect(status()).resolves.toMatch(/^\d+ server tiles failed: the server's tile/);
  } finally {
    await s.page.unroute('**/tiles/**');
  }
});

test('served tiles again: the errors clear and the status says what is shown', async () => {
  await compareOn();
  expect((await previewState(s.page)).errors).toEqual([]);
  await expect(status()).resolves.toBe('Showing server-rendered tiles');
  await expect(isError()).resolves.toBe(false);
});

describe("the server's own failure", () => {
  let dir: string;
  let t: Session;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dir = mkdtempSync(path.join(ARTIFACTS, 'compare-'));
    writeFileSync(
      path.join(dir, 'style.json'),
      JSON.stringify({
        name: 'Missing data',
        output: 'out',
        sources: { shapes: { type: 'geojson', data: 'gone.geojson' } },
        nodes: {
          shapes: { op: 'features', source: 'shapes' },
          sea: { op: 'solid', color: '#a9cfe6' },
          land: { op: 'fill-solid', features: '@shapes', fill: '#d2b48c' },
          out: { op: 'blend', base: '@sea', over: '@land' },
        },
      }),
    );
    t = await openWorkbench(path.join(dir, 'style.json'));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a style whose data file is missing: 502s, named in the status line', async () => {
    await t.page.goto(t.base);
    await settled(t.page, 0, true);
    const g = (await previewState(t.page)).generation;
    await t.page.getByRole('switch', { name: 'Show server-rendered tiles' }).check();
    await settled(t.page, g + 1, true);
    expect((await previewState(t.page)).errors).toEqual(["HTTP 502: source 'shapes': cannot read 'gone.geojson': no such file"]);
    await expect(t.page.locator('#status').textContent()).resolves.toMatch(
      /^\d+ server tiles failed: HTTP 502: source 'shapes': cannot read 'gone\.geojson': no such file$/,
    );
  });
});
