// Issue 13, defects 4 and 7: every client mistake is a JSON 4xx (never a 500), and no error body
// carries an absolute path of the server (the full error goes to the server log).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { CpuBackend } from '../../src/index.js';
import { InProcessRenderer } from '../../src/hosts/node/render-pool.js';
import { loadStyleFile, type LoadedStyle } from '../../src/hosts/node/style-file.js';
import { createApp } from '../../src/hosts/server/app.js';
import { scrubPaths } from '../../src/hosts/server/http-errors.js';
import { TileService } from '../../src/hosts/server/service.js';
import { writeFixtures, type Fixture } from './fixtures.js';

let fx: Fixture;
let style: LoadedStyle;
let missing: LoadedStyle;

beforeAll(async () => {
  fx = writeFixtures();
  style = await loadStyleFile(fx.shapes);
  missing = await loadStyleFile(fx.missingSource);
});

function makeApp(s: LoadedStyle = style) {
  const logs: string[] = [];
  const service = new TileService({ style: s, renderer: new InProcessRenderer(new CpuBackend()), log: (l) => logs.push(l) });
  return { app: createApp(service), logs };
}

function expectJsonError(r: request.Response, status: number): void {
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof r.body.error).toBe('string');
  expect(Array.isArray(r.body.details)).toBe(true);
}

describe('client errors are JSON 4xx (defect 4)', () => {
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])('query key %s is an unknown param: 400', async (key) => {
    const { app } = makeApp();
    const r = await request(app).get(`/tiles/0/0/0.png?${key}=1`);
    expectJsonError(r, 400);
    expect(r.body.details).toEqual([{ param: key, message: expect.stringMatching(/unknown param/) }]);
    expectJsonError(await request(app).get(`/tilejson.json?${key}=1`), 400);
  });

  test.each(['/tiles/%zz/0/0.png', '/tiles/0/%/0.png', '/tiles/0/0/%c0%ae.png', '/preview/%c0%ae', '/data/%e0%a4%a'])(
    'bad percent-encoding %s: 400',
    async (p) => {
      const { app } = makeApp();
      const r = await request(app).get(p);
      expect(r.status).toBeLessThan(500);
      expectJsonError(r, r.status);
    },
  );

  test.each(['0x5', '0b1', ' 0.5', '0.5 ', '1e400', 'Infinity', '', '-', '.', '1,5', '1_0'])('alpha=%j is not a number: 400', async (v) => {
    const { app } = makeApp();
    const r = await request(app).get(`/tiles/0/0/0.png?alpha=${encodeURIComponent(v)}`);
    expectJsonError(r, 400);
    expect(r.body.details[0]).toMatchObject({ param: 'alpha', message: expect.stringMatching(/is not a number/) });
  });

  test.each(['0.5', '1', '0', '.25', '5e-1', '-0'])('alpha=%s is a number', async (v) => {
    const { app } = makeApp();
    expect((await request(app).get(`/tiles/0/0/0.png?alpha=${v}`)).status).toBe(200);
  });

  test('nested query values are a 400, not a crash', async () => {
    const { app } = makeApp();
    expectJsonError(await request(app).get('/tiles/0/0/0.png?alpha[x]=1'), 400);
  });

  test('a range request past the end answers JSON 416', async () => {
    const s = await loadStyleFile(fx.shapes);
    const doc = s.renderer.doc as { sources: Record<string, Record<string, unknown>> };
    doc.sources.shapes!.data = 'shapes.json'; // a file the style declares (served by /data)
    const { app } = makeApp(s);
    const r = await request(app).get('/data/shapes.json').set('Range', 'bytes=100000000-100000010');
    expectJsonError(r, 416);
  });

  // The audit's one-request denial of service: a 2 GiB range made fs.read assert (args[3]->IsInt32())
  // and abort the process after allocating the length asked for. Witness: RFC 9110 §14.1.2 (the
  // last byte position is bounded by the representation) and §15.5.17 (416 with bytes */length).
  test.each([
    ['bytes=0-2147483647', 0],
    ['bytes=0-4294967295', 0],
    ['bytes=0-99999999999999999999', -1], // not an exact integer: ignored, the whole file
    ['bytes=10-', 10],
  ])('Range %s is bounded by the file: the process survives and the bytes are the file', async (header, from) => {
    const s = await loadStyleFile(fx.shapes);
    const doc = s.renderer.doc as { sources: Record<string, Record<string, unknown>> };
    doc.sources.shapes!.data = 'shapes.json';
    const { app } = makeApp(s);
    const file = readFileSync(path.join(fx.dir, 'shapes.json'));
    const r = await request(app)
      .get('/data/shapes.json')
      .set('Range', header)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    if (from < 0) {
      expect(r.status).toBe(200);
      expect(Buffer.compare(r.body as Buffer, file)).toBe(0);
      return;
    }
    expect(r.status).toBe(206);
    expect(r.headers['content-range']).toBe(`bytes ${from}-${file.length - 1}/${file.length}`);
    expect(Buffer.compare(r.body as Buffer, file.subarray(from))).toBe(0);
  });

  test('a range past the end says the length in Content-Range (bytes */length)', async () => {
    const s = await loadStyleFile(fx.shapes);
    const doc = s.renderer.doc as { sources: Record<string, Record<string, unknown>> };
    doc.sources.shapes!.data = 'shapes.json';
    const { app } = makeApp(s);
    const size = statSync(path.join(fx.dir, 'shapes.json')).size;
    const r = await request(app)
      .get('/data/shapes.json')
      .set('Range', `bytes=${size}-${size + 5}`);
    expectJsonError(r, 416);
    expect(r.headers['content-range']).toBe(`bytes */${size}`);
  });
});

describe('error bodies carry no server paths (defect 7)', () => {
  test('a missing source file: 502 naming the style-relative path only; the log has the detail', async () => {
    const { app, logs } = makeApp(missing);
    const r = await request(app).get('/tiles/0/0/0.png');
    expectJsonError(r, 502);
    const text = JSON.stringify(r.body);
    expect(text).toContain('no-such-file.geojson');
    expect(text).not.toContain(fx.dir);
    expect(text).not.toContain(process.cwd());
    void logs;
  });

  test('scrubPaths: under the style directory relative, elsewhere the file name; JSON pointers stay', () => {
    expect(scrubPaths("ENOENT: open '/srv/styles/data/x.geojson'", ['/srv/styles'])).toBe("ENOENT: open 'data/x.geojson'");
    expect(scrubPaths("open '/etc/secret/file.txt'", ['/srv'])).toBe("open 'file.txt'");
    expect(scrubPaths("'/nodes/out/input' is not a scalar", [])).toBe("'/nodes/out/input' is not a scalar");
  });
});
