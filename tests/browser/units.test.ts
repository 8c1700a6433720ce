// Pieces of the browser binding that run in Node too: the fetch loader, the /data route's allowlist,
// slider steps and errors across the worker boundary. (The browser itself: binding/preview tests.)
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { FetchLoader } from '../../src/hosts/browser/loader.js';
import { rangeStep, shortColor } from '../../src/hosts/browser/preview/panel.js';
import { fromWire, toWire } from '../../src/hosts/browser/protocol.js';
import { ParamError, SourceError, StyleError } from '../../src/errors.js';
import { styleDeclaresRef } from '../../src/hosts/server/preview.js';
import { serve, type RunningServer } from '../../src/hosts/server/index.js';
import type { StyleDoc } from '../../src/style/types.js';
import { EXAMPLE_STYLE, httpGet, ROOT } from './harness.js';

describe('FetchLoader', () => {
  const BYTES = Uint8Array.from({ length: 100 }, (_, i) => i);
  let server: Server;
  let base: string;
  const seen: { url: string; range?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ url: req.url!, range: req.headers.range });
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (req.url === '/data/archive.pmtiles' && m) {
        const [a, b] = [Number(m[1]), Number(m[2])];
        if (a >= BYTES.length) return void res.writeHead(416).end();
        res.writeHead(206, { 'content-range': `bytes ${a}-${Math.min(b, 99)}/100` }).end(BYTES.subarray(a, b + 1));
      } else if (req.url === '/data/archive.pmtiles' || req.url === '/plain.bin') res.writeHead(200).end(BYTES);
      else res.writeHead(404, 'Not Found').end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  test('relative refs resolve against baseUrl; URLs pass through; other schemes need a host route', () => {
    const l = new FetchLoader({ baseUrl: 'https://maps.example/styles/world/style.json' });
    expect(l.resolve('data/countries.geojson')).toBe('https://maps.example/styles/world/data/countries.geojson');
    expect(l.resolve('../shared/a.pmtiles')).toBe('https://maps.example/styles/shared/a.pmtiles');
    expect(l.resolve('https://tiles.example/{z}.pbf')).toBe('https://tiles.example/{z}.pbf');
    expect(() => l.resolve('npm:world-atlas/countries-110m.json')).toThrow(
      "'npm:world-atlas/countries-110m.json' cannot be fetched by a browser; serve it from a host route and pass dataUrl",
    );
    const d = new FetchLoader({ baseUrl: 'https://maps.example/style', dataUrl: 'https://maps.example/data/' });
    expect(d.resolve('npm:world-atlas/countries-110m.json')).toBe('https://maps.example/data/npm%3Aworld-atlas%2Fcountries-110m.json');
    expect(d.resolve('tiles/3/4/2.pbf')).toBe('https://maps.example/data/tiles%2F3%2F4%2F2.pbf');
    expect(d.key('tiles/3/4/2.pbf')).toBe('https://maps.example/data/tiles%2F3%2F4%2F2.pbf');
  });

  test('byte ranges become Range requests; a server ignoring Range is sliced; 416 is no bytes', async () => {
    const l = new FetchLoader({ baseUrl: base, dataUrl: base + 'data/' });
    await expect(l.load('archive.pmtiles', { offset: 10, length: 5 })).resolves.toEqual(Uint8Array.of(10, 11, 12, 13, 14));
    expect(seen.at(-1)).toEqual({ url: '/data/archive.pmtiles', range: 'bytes=10-14' });
    await expect(l.load('archive.pmtiles', { offset: 98, length: 10 })).resolves.toEqual(Uint8Array.of(98, 99));
    await expect(l.load('archive.pmtiles', { offset: 120, length: 10 })).resolves.toEqual(new Uint8Array(0));
    await expect(l.load('archive.pmtiles')).resolves.toEqual(BYTES);
    const plain = new FetchLoader({ baseUrl: base });
    await expect(plain.load('plain.bin', { offset: 20, length: 3 })).resolves.toEqual(Uint8Array.of(20, 21, 22));
    await expect(plain.load('missing.json')).rejects.toThrow(`HTTP 404 Not Found for ${base}missing.json`);
  });
});

describe("the preview's /data route", () => {
  const doc = {
    output: 'o',
    nodes: {},
    sources: {
      a: { type: 'geojson', data: 'npm:world-atlas/countries-110m.json' },
      b: { type: 'mvt', tiles: ['tiles/{z}/{x}/{y}.pbf', 'https://cdn.example/{z}/{x}/{y}.pbf'] },
      c: { type: 'pmtiles', url: 'terrain.pmtiles' },
      d: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
  } as unknown as StyleDoc;

  test('serves only refs the style declares: data, url, and tiles of a template', () => {
    expect(styleDeclaresRef(doc, 'npm:world-atlas/countries-110m.json')).toBe(true);
    expect(styleDeclaresRef(doc, 'terrain.pmtiles')).toBe(true);
    expect(styleDeclaresRef(doc, 'tiles/3/4/2.pbf')).toBe(true);
    expect(styleDeclaresRef(doc, 'tiles/3/4/../../../package.json')).toBe(false);
    expect(styleDeclaresRef(doc, 'tiles/{z}/{x}/{y}.pbf')).toBe(false);
    expect(styleDeclaresRef(doc, 'npm:world-atlas/land-110m.json')).toBe(false);
    expect(styleDeclaresRef(doc, 'https://cdn.example/1/0/0.pbf')).toBe(false); // never a proxy
    expect(styleDeclaresRef(doc, 'package.json')).toBe(false);
  });

  describe('over HTTP', () => {
    let srv: RunningServer;
    beforeAll(async () => {
      srv = await serve({ style: EXAMPLE_STYLE, port: 0, host: '127.0.0.1', workers: 0, backend: 'cpu', log: () => undefined });
    });
    afterAll(() => srv.close(0));
    const file = readFileSync(path.join(ROOT, 'node_modules/world-atlas/countries-110m.json'));

    test("answers the example style's data whole, and byte ranges with 206", async () => {
      const url = `${srv.url}data/${encodeURIComponent('npm:world-atlas/countries-110m.json')}`;
      const whole = await httpGet(url);
      expect(whole.status).toBe(200);
      expect(whole.body.equals(file)).toBe(true);
      const part = await httpGet(url, { range: 'bytes=100-119' });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-119/${file.length}`);
      expect(part.body.equals(file.subarray(100, 120))).toBe(true);
      const tail = await httpGet(url, { range: `bytes=${file.length - 5}-` });
      expect(tail.body.equals(file.subarray(file.length - 5))).toBe(true);
    });

    test('refuses anything else with a JSON 404', async () => {
      for (const ref of ['package.json', '../../package.json', 'npm:world-atlas/land-110m.json', 'https://example.com/x.json']) {
        const res = await httpGet(`${srv.url}data/${encodeURIComponent(ref)}`);
        expect(res.status).toBe(404);
        expect(res.json<{ error: string }>().error).toBe('not found');
      }
    });
  });
});

test('slider steps: 20 to 200 steps over the range (issue 23: 0..4 stepped by 0.01), the default and both bounds on the grid', () => {
  expect(rangeStep(0, 4, 0.8)).toBeCloseTo(0.1, 12);
  expect(rangeStep(0, 12, 4)).toBeCloseTo(0.1, 12);
  expect(rangeStep(0, 1, 0.5)).toBeCloseTo(0.01, 12);
  expect(rangeStep(0, 360, 0)).toBe(10);
  expect(rangeStep(0, 360, 315)).toBe(1); // 315 is not on a grid of 10
  expect(rangeStep(0, 1000, 40)).toBe(10);
  expect(rangeStep(0, 1000, 42)).toBe(1);
  expect(rangeStep(0, 1, 0.333)).toBeCloseTo(0.001, 12);
  expect(rangeStep(-1, 1, 0)).toBeCloseTo(0.1, 12);
  expect(rangeStep(0.5, 1.25, 1)).toBeCloseTo(0.01, 12);
  expect(rangeStep(0, 0.01, 0.0002)).toBeCloseTo(0.0001, 12);
  expect(rangeStep(3, 3, 3)).toBe(1);
  expect(shortColor('#a9cfe6ff')).toBe('#a9cfe6');
  expect(shortColor('#a9cfe680')).toBe('#a9cfe680');
});

test('errors keep their class, code and problems across the worker boundary', () => {
  const p = fromWire(structuredClone(toWire(new ParamError([{ pointer: '', param: 'x', message: "param 'x': 9 is above its max 4" }]))));
  expect(p).toBeInstanceOf(ParamError);
  expect((p as ParamError).problems).toEqual([{ pointer: '', param: 'x', message: "param 'x': 9 is above its max 4" }]);
  const s = fromWire(structuredClone(toWire(new SourceError('countries', '3/4/2', 'HTTP 404'))));
  expect(s).toBeInstanceOf(SourceError);
  expect(s.message).toBe("/sources/countries: source 'countries' tile 3/4/2: HTTP 404");
  expect((s as SourceError).source).toBe('countries');
  expect(fromWire(toWire(new StyleError('bad')))).toBeInstanceOf(StyleError);
  const abort = fromWire(toWire(new DOMException('stop', 'AbortError')));
  expect(abort.name).toBe('AbortError');
  const plain = fromWire(toWire(new TypeError('boom')));
  expect([plain.name, plain.message]).toEqual(['TypeError', 'boom']);
});
