// examples/terrain/style.json: its golden copy (golden/terrain-example) differs only in the source,
// and the example itself renders offline with the AWS Terrarium URLs served from the fixtures.
import { readFileSync, readdirSync } from 'node:fs';
import { Renderer, toRGBA8 } from '../../index.js';
import { decodeImage } from '../../hosts/node/image.js';
import type { Loader } from '../../sources/types.js';
import { fixture, fixturesTest } from '../../../tests/helpers/fixtures.js';
import { NodeLoader } from '../../hosts/node/loader.js';
import { expectSeamless, seam } from '../../../tests/helpers/seam.js';
import request from 'supertest';
import { CpuBackend } from '../../index.js';
import { decodePngRGBA } from '../../hosts/node/png.js';
import { InProcessRenderer } from '../../hosts/node/render-pool.js';
import { loadStyleFile } from '../../hosts/node/style-file.js';
import { createApp } from '../../hosts/server/app.js';
import { TileService } from '../../hosts/server/service.js';

const EXAMPLE = JSON.parse(readFileSync('examples/terrain/style.json', 'utf8')) as Record<string, unknown> & {
  sources: Record<string, unknown>;
  nodes: object;
  params: object;
};
const GOLDEN = JSON.parse(readFileSync('golden/terrain-example/style.json', 'utf8')) as typeof EXAMPLE;

describe('terrain example', () => {
  test('the golden copy has the same nodes, params and legend', () => {
    expect(GOLDEN.nodes).toEqual(EXAMPLE.nodes);
    expect(GOLDEN.params).toEqual(EXAMPLE.params);
    expect(GOLDEN.legend).toEqual(EXAMPLE.legend);
    expect(GOLDEN.output).toEqual(EXAMPLE.output);
  });

  test('it builds: the AWS Terrain Tiles Terrarium source and every op it uses are implemented', () => {
    const r = Renderer.create(EXAMPLE);
    expect(r).toBeDefined();
    expect((EXAMPLE.sources.terrain as { tiles: string[] }).tiles[0]).toBe('https://s3.amazonaws.com/elevation-tiles-prod/terrarium/{z}/{x}/{y}.png');
  });

  fixturesTest('it renders offline: the Terrarium URLs served from the z9 fixture block', async () => {
    const dir = fixture('dem/terrarium/mapzen-z9-256');
    const files = new Map<string, Uint8Array>();
    for (const f of readdirSync(dir)) {
      const [z, x, y] = f.replace('.png', '').split('-');
      files.set(`https://s3.amazonaws.com/elevation-tiles-prod/terrarium/${z}/${x}/${y}.png`, new Uint8Array(readFileSync(`${dir}/${f}`)));
    }
    const loader: Loader = {
      decodeImage,
      async load(ref: string) {
        const b = files.get(ref);
        if (!b) throw new Error(`no fixture for ${ref}`);
        return b;
      },
    };
    const r = Renderer.create(EXAMPLE, { loader });
    const px = toRGBA8((await r.renderWindow({ z: 9, x0: 269 * 256 + 64, y0: 177 * 256 + 64, width: 128, height: 128, tileSize: 256 })).raster);
    const colours = new Set<number>();
    for (let i = 0; i < px.length; i += 4) {
      expect(px[i + 3]).toBe(255);
      colours.add((px[i]! << 16) | (px[i + 1]! << 8) | px[i + 2]!);
    }
    expect(colours.size).toBeGreaterThan(500);
  });

  fixturesTest('seamless: the golden copy (every op of the example) as a 2x2 mosaic of z10 tiles equals the window', async () => {
    const loader = new NodeLoader({ baseDir: 'golden/terrain-example', allowOutside: true });
    // z10 tiles 538..539 / 355..356 lie inside the z9 fixture block (over-zoomed 2x, bilinear).
    expectSeamless(await seam(GOLDEN, 10, 538, 355, 256, { loader }), 0.99);
  });

  fixturesTest(
    'served: the tile server renders the example over HTTP (fetch of the AWS URLs answered from the fixtures), with its params and preview page',
    async () => {
      const dir = fixture('dem/terrarium/mapzen-z9-256');
      const realFetch = globalThis.fetch;
      const asked: string[] = [];
      globalThis.fetch = (async (input: string | URL | Request) => {
        const url = String(input instanceof Request ? input.url : input);
        asked.push(url);
        const m = /terrarium\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url);
        // Tiles outside the 3x2 fixture block repeat its nearest tile (only the 1 px margins read them).
        const x = m ? Math.min(270, Math.max(268, Number(m[2]))) : 0,
          y = m ? Math.min(178, Math.max(177, Number(m[3]))) : 0;
        const file = m && m[1] === '9' ? `${dir}/9-${x}-${y}.png` : '';
        try {
          return new Response(readFileSync(file), { status: 200, headers: { 'content-type': 'image/png' } });
        } catch {
          return new Response('not found', { status: 404 });
        }
      }) as typeof fetch;
      try {
        const style = await loadStyleFile('examples/terrain/style.json');
        const service = new TileService({ style, renderer: new InProcessRenderer(new CpuBackend()), log: () => undefined });
        const app = createApp(service);
        const tile = await request(app).get('/tiles/9/269/177.png?exaggeration=3&contours=%23202020');
        expect(tile.status).toBe(200);
        expect(tile.headers['content-type']).toBe('image/png');
        const png = await decodePngRGBA(tile.body as Buffer);
        expect([png.width, png.height]).toEqual([256, 256]);
        expect(asked.some((u) => u === 'https://s3.amazonaws.com/elevation-tiles-prod/terrarium/9/269/177.png')).toBe(true);
        const params = await request(app).get('/style/params');
        expect(Object.keys((params.body as { properties: object }).properties)).toEqual(expect.arrayContaining(['azimuth', 'exaggeration', 'wobble', 'grain']));
        const page = await request(app).get('/');
        expect(page.status).toBe(200);
        expect(page.text).toMatch(/^<!doctype html>/i);
      } finally {
        globalThis.fetch = realFetch;
      }
    },
  );
});
