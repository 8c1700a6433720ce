// Several styles from one server: /styles/{id}/... per style, / and /styles list them, and one
// style keeps the single-style URLs.
import { resolveStyleFiles, styleIds, type RunningGallery } from './gallery.js';
import { serve, type RunningServer } from './serve.js';

const get = (url: string, init?: RequestInit) => fetch(url, { redirect: 'manual', ...init });

describe('serving a gallery of styles', () => {
  let s: RunningGallery;
  beforeAll(async () => {
    s = (await serve({ style: 'examples', port: 0, workers: 0, backend: 'cpu', log: () => undefined })) as RunningGallery;
  });
  afterAll(() => s?.close());

  test('a directory of <name>/style.json gives one id per style', () => {
    const files = resolveStyleFiles(['examples']);
    expect(styleIds(files)).toEqual(expect.arrayContaining(['handdrawn', 'heatmap', 'toner', 'watercolor', 'world']));
    expect([...s.services.keys()]).toEqual(styleIds(files));
    expect(styleIds(['a/style.json', 'b/a/style.json', 'x/My Style.json'])).toEqual(['a', 'a-2', 'my-style']);
  });

  test('/ lists every style with a thumbnail and a link to its preview; /styles as JSON', async () => {
    const html = await (await get(s.url)).text();
    for (const id of s.services.keys()) {
      expect(html).toContain(`href="styles/${id}/"`);
      expect(html).toMatch(new RegExp(`<img src="styles/${id}/tiles/\\d+/\\d+/\\d+\\.png"`));
    }
    const list = (await (await get(s.url + 'styles')).json()) as { styles: { id: string; name: string; tilejson: string; thumbnail: string }[] };
    expect(list.styles.map((x) => x.id)).toEqual([...s.services.keys()]);
    const toner = list.styles.find((x) => x.id === 'toner')!;
    expect(toner.name).toBe('Toner (Chicago lakefront)');
    // The thumbnail is a real tile of the style.
    const png = await get(toner.thumbnail);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
  });

  test("the gallery examples' legend entries draw a visible swatch (assets included; issue 23: stipple's border swatches were nearly blank)", async () => {
    for (const id of ['handdrawn', 'heatmap', 'stipple', 'toner', 'watercolor', 'world']) {
      const r = s.services.get(id)!.style.renderer;
      for (const [i, e] of (r.legend?.entries ?? []).entries()) {
        const sw = await r.renderLegendSwatch(i, r.params(), { size: 20 }); // the preview's size
        // Visible: some pixels at least a fifth opaque (a state line filtered out drew none at all).
        let seen = 0;
        for (let k = 3; k < sw.data.length; k += 4) if (sw.data[k]! >= 0.2) seen++;
        expect({ id, entry: e.label, visible: seen >= 8 }).toEqual({ id, entry: e.label, visible: true });
      }
    }
  });

  test('the examples name their nodes for what they hold (the graph view shows the names; toner and handdrawn said a, b, c ... h)', () => {
    for (const [id, svc] of s.services) {
      // One letter says nothing, except the conventional `z` of a zoom node.
      const short = Object.entries(svc.style.renderer.doc.nodes)
        .filter(([n, spec]) => n.length < 2 && !(n === 'z' && spec.op === 'zoom'))
        .map(([n]) => n);
      expect({ id, short }).toEqual({ id, short: [] });
    }
  });

  test("each style's own endpoints live under /styles/{id}/: params, TileJSON (tiles URL included), tiles, preview", async () => {
    const params = (await (await get(s.url + 'styles/watercolor/style/params')).json()) as { properties: Record<string, { description?: string }> };
    expect(params.properties.wobble?.description).toMatch(/coastlines/);
    const tj = (await (await get(s.url + 'styles/handdrawn/tilejson.json')).json()) as { tiles: string[]; bounds: number[] };
    expect(tj.tiles[0]).toMatch(/\/styles\/handdrawn\/tiles\/\{z\}\/\{x\}\/\{y\}\.png\?v=/);
    expect(tj.bounds[0]).toBeCloseTo(-87.80269, 4); // the style's source bounds
    const bad = await get(s.url + 'styles/watercolor/tiles/2/2/1.png?wobble=99');
    expect(bad.status).toBe(400);
    const moved = await get(s.url + 'styles/toner');
    expect([moved.status, moved.headers.get('location')]).toEqual([301, '/styles/toner/']);
    expect((await get(s.url + 'styles/toner/')).status).toBe(200);
    const missing = await get(s.url + 'styles/nope/tilejson.json');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { details: { message: string }[] }).details[0]!.message).toMatch(/styles: handdrawn, heatmap/);
  });
});

describe('--watch with several styles', () => {
  test('each style reloads when its own file changes', async () => {
    const { mkdtempSync, mkdirSync, writeFileSync, readFileSync } = await import('node:fs');
    const os = await import('node:os');
    const pathm = await import('node:path');
    const dir = mkdtempSync(pathm.join(os.tmpdir(), 'tg-gallery-'));
    const doc = (colour: string) => JSON.stringify({ name: `solid ${colour}`, output: 'o', nodes: { o: { op: 'solid', color: colour } } });
    for (const id of ['a', 'b']) {
      mkdirSync(pathm.join(dir, id));
      writeFileSync(pathm.join(dir, id, 'style.json'), doc('#112233'));
    }
    const g = (await serve({ style: dir, port: 0, workers: 0, backend: 'cpu', watch: true, log: () => undefined })) as RunningGallery;
    try {
      const before = g.services.get('b')!.version;
      writeFileSync(pathm.join(dir, 'b', 'style.json'), doc('#445566'));
      for (let i = 0; i < 100 && g.services.get('b')!.version === before; i++) await new Promise((r) => setTimeout(r, 50));
      expect(g.services.get('b')!.version).not.toBe(before);
      expect(JSON.parse(readFileSync(pathm.join(dir, 'a', 'style.json'), 'utf8')).name).toBe('solid #112233');
      const names = (await (await get(g.url + 'styles')).json()) as { styles: { id: string; name: string }[] };
      expect(names.styles.map((x) => x.name)).toEqual(['solid #112233', 'solid #445566']);
    } finally {
      await g.close();
    }
  });
});

describe('one style keeps the single-style URLs', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await serve({ style: ['examples/toner/style.json'], port: 0, workers: 0, backend: 'cpu', log: () => undefined });
  });
  afterAll(() => s?.close());
  test('/tilejson.json and /style/params at the root', async () => {
    const tj = (await (await get(s.url + 'tilejson.json')).json()) as { tiles: string[] };
    expect(tj.tiles[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/tiles\/\{z\}/);
    expect((await get(s.url + 'style/params')).status).toBe(200);
    expect('services' in s).toBe(false);
  });
});
