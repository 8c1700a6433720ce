// The Node host loader (files relative to the style, refusal outside its directory, npm:, http
// ranges) and the tile math the sources share.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NodeLoader, resolveNpmRef } from '../../src/hosts/node/loader.js';
import { Renderer } from '../../src/index.js';
import { boundsTileRange, coveringTiles, expandTemplate, tileInBounds } from '../../src/sources/tiles.js';

describe('NodeLoader', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tilegraph-loader-'));
  mkdirSync(path.join(dir, 'style'));
  writeFileSync(
    path.join(dir, 'style', 'data.bin'),
    Uint8Array.from({ length: 100 }, (_, i) => i),
  );
  writeFileSync(path.join(dir, 'secret.txt'), 'outside');

  test('reads files relative to the style directory, whole or by range (short at the end)', async () => {
    const l = new NodeLoader({ baseDir: path.join(dir, 'style') });
    expect((await l.load('data.bin')).length).toBe(100);
    expect(Array.from(await l.load('data.bin', { offset: 10, length: 3 }))).toEqual([10, 11, 12]);
    expect(Array.from(await l.load('data.bin', { offset: 98, length: 16384 }))).toEqual([98, 99]);
    expect(l.key('data.bin')).toBe(path.join(dir, 'style', 'data.bin'));
  });

  test('a range of 2 GiB or 4 GiB reads what the file holds, allocating no more (fs.read asserted on lengths over 2^31)', async () => {
    const l = new NodeLoader({ baseDir: path.join(dir, 'style') });
    for (const length of [2 ** 31, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER]) {
      const b = await l.load('data.bin', { offset: 0, length });
      expect(b.length).toBe(100);
      expect(b.buffer.byteLength).toBe(100);
    }
    expect((await l.load('data.bin', { offset: 2 ** 40, length: 2 ** 31 })).length).toBe(0);
    await expect(l.load('data.bin', { offset: -1, length: 5 })).rejects.toThrow(/invalid byte range/);
    expect(await l.size('data.bin')).toBe(100);
  });

  test('refuses paths outside the style directory unless allowed', async () => {
    const strict = new NodeLoader({ baseDir: path.join(dir, 'style') });
    await expect(strict.load('../secret.txt')).rejects.toThrow(/outside the style's directory/);
    await expect(strict.load(path.join(dir, 'secret.txt'))).rejects.toThrow(/outside the style's directory/);
    await expect(strict.load(`file://${path.join(dir, 'secret.txt')}`)).rejects.toThrow(/outside/);
    const open = new NodeLoader({ baseDir: path.join(dir, 'style'), allowOutside: true });
    expect(new TextDecoder().decode(await open.load('../secret.txt'))).toBe('outside');
  });

  test('npm: refs read files shipped in installed packages', async () => {
    const l = new NodeLoader({ baseDir: process.cwd() });
    const b = await l.load('npm:world-atlas/countries-110m.json');
    expect(JSON.parse(new TextDecoder().decode(b)).type).toBe('Topology');
  });

  test("npm: refs resolve from the style's folder first, then tilegraph's installation, then the working directory (docs/sources.md)", async () => {
    // A style outside the checkout: world-atlas comes from tilegraph's own installation.
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tilegraph-user-style-'));
    const fromInstall = new NodeLoader({ baseDir: elsewhere });
    expect(JSON.parse(new TextDecoder().decode(await fromInstall.load('npm:world-atlas/countries-110m.json'))).type).toBe('Topology');
    // A package in a node_modules folder above the style's folder wins over tilegraph's own copy.
    const own = path.join(elsewhere, 'node_modules', 'world-atlas');
    mkdirSync(own, { recursive: true });
    writeFileSync(path.join(own, 'countries-110m.json'), '{"type":"FeatureCollection","features":[]}');
    mkdirSync(path.join(elsewhere, 'styles', 'a'), { recursive: true });
    const nested = new NodeLoader({ baseDir: path.join(elsewhere, 'styles', 'a') });
    expect(JSON.parse(new TextDecoder().decode(await nested.load('npm:world-atlas/countries-110m.json'))).type).toBe('FeatureCollection');
    // Scoped packages; the working directory last.
    const cwd = mkdtempSync(path.join(tmpdir(), 'tilegraph-cwd-'));
    mkdirSync(path.join(cwd, 'node_modules', '@me', 'data'), { recursive: true });
    writeFileSync(path.join(cwd, 'node_modules', '@me', 'data', 'x.json'), '{}');
    expect(resolveNpmRef('npm:@me/data/x.json', path.join(elsewhere, 'styles', 'a'), cwd)).toBe(path.join(cwd, 'node_modules', '@me', 'data', 'x.json'));
    // Nothing found: one sentence naming the ref once and every place looked in.
    let message = '';
    await fromInstall.load('npm:no-such-package-xyz/a.json').catch((e: Error) => (message = e.message));
    expect(message).toBe(
      "cannot read 'npm:no-such-package-xyz/a.json': no package 'no-such-package-xyz' in a node_modules folder from the style's folder, tilegraph's installation or the working directory upwards (npm install no-such-package-xyz)",
    );
    await expect(fromInstall.load('npm:world-atlas/no-such-file.json')).rejects.toThrow(/^cannot read 'npm:world-atlas\/no-such-file\.json': no such file$/);
    // The file part stays inside the package folder; a ref without a file is no npm ref.
    await expect(fromInstall.load('npm:world-atlas/../../package.json')).rejects.toThrow(
      "'npm:world-atlas/../../package.json' leaves the package 'world-atlas'",
    );
    await expect(fromInstall.load('npm:world-atlas')).rejects.toThrow(/is not an npm reference: write npm:<package>\/<file>/);
  });

  test('a geojson source whose npm: file is missing names the ref once (issue 23: the message repeated itself)', async () => {
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'tilegraph-user-style-'));
    const r = Renderer.create(
      {
        output: 'f',
        sources: { c: { type: 'geojson', data: 'npm:world-atlas/countries-999m.json' } },
        nodes: { c: { op: 'features', source: 'c' }, f: { op: 'fill-solid', features: '@c', fill: '#000000' } },
      },
      { loader: new NodeLoader({ baseDir: elsewhere }) },
    );
    let message = '';
    await r.renderTile({ z: 0, x: 0, y: 0 }, r.params()).catch((e: Error) => (message = e.message));
    expect(message).toMatch(/cannot read 'npm:world-atlas\/countries-999m\.json': no such file$/);
    expect(message.split('npm:world-atlas').length).toBe(2);
  });

  test('http(s): byte ranges from servers that honour Range, ignore it, or answer 416', async () => {
    const body = Uint8Array.from({ length: 50 }, (_, i) => i);
    const server = http.createServer((req, res) => {
      const m = /bytes=(\d+)-(\d+)/.exec(String(req.headers.range ?? ''));
      if (req.url === '/ranged' && m) {
        const a = Number(m[1]);
        if (a >= body.length) {
          res.writeHead(416);
          return res.end();
        }
        res.writeHead(206);
        return res.end(body.subarray(a, Math.min(body.length, Number(m[2]) + 1)));
      }
      res.writeHead(200);
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const l = new NodeLoader({ baseDir: '.' });
      expect(Array.from(await l.load(`${base}/ranged`, { offset: 5, length: 3 }))).toEqual([5, 6, 7]);
      expect(Array.from(await l.load(`${base}/plain`, { offset: 5, length: 3 }))).toEqual([5, 6, 7]);
      expect((await l.load(`${base}/ranged`, { offset: 60, length: 10 })).length).toBe(0);
      expect(l.key(`${base}/x`)).toBe(`${base}/x`);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('tile math', () => {
  test('templates: {z}/{x}/{y}, TMS rows and quadkeys', () => {
    expect(expandTemplate('t/{z}/{x}/{y}.pbf', 3, 5, 2)).toBe('t/3/5/2.pbf');
    expect(expandTemplate('t/{z}/{x}/{-y}.pbf', 3, 5, 2)).toBe('t/3/5/5.pbf');
    expect(expandTemplate('t/{z}/{x}/{y}.pbf', 3, 5, 2, 'tms')).toBe('t/3/5/5.pbf');
    // Bing's documented example: tile (3, 5) at level 3 is quadkey 213.
    expect(expandTemplate('q/{quadkey}', 3, 3, 5)).toBe('q/213');
  });

  test('bounds as tile ranges, including across the antimeridian', () => {
    expect(boundsTileRange([-180, -85, 180, 85], 2)).toEqual({ x0: 0, y0: 0, x1: 3, y1: 3 });
    expect(tileInBounds([10, 40, 12, 42], 6, 33, 23)).toBe(true);
    expect(tileInBounds([10, 40, 12, 42], 6, 34, 23)).toBe(true); // lng 11.25..16.875 overlaps
    expect(tileInBounds([10, 40, 12, 42], 6, 35, 23)).toBe(false);
    expect(tileInBounds([10, 40, 12, 42], 6, 33, 25)).toBe(false);
    // West > east: the range wraps.
    expect(tileInBounds([170, -10, -170, 10], 3, 7, 3)).toBe(true);
    expect(tileInBounds([170, -10, -170, 10], 3, 0, 3)).toBe(true);
    expect(tileInBounds([170, -10, -170, 10], 3, 4, 3)).toBe(false);
  });

  test('zero-width bounds on a tile edge select the tiles beside that edge, not every column (issue 19)', () => {
    // lng 0 / lat 0 is the edge between columns 3 and 4 (rows 3 and 4) at z3.
    const r = boundsTileRange([0, 0, 0, 0], 3);
    expect(r.x0).toBeLessThanOrEqual(r.x1);
    expect(r.y0).toBeLessThanOrEqual(r.y1);
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([0, 10, 0, 20], 3, x, 3)]).toEqual([x, x === 3 || x === 4]);
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([45, 10, 45, 20], 3, x, 3)]).toEqual([x, x === 4 || x === 5]);
    // A zero-height range on a row edge: the rows beside it, never a wrapped range.
    for (let y = 0; y < 8; y++) expect([y, tileInBounds([10, 0, 20, 0], 3, 4, y)]).toEqual([y, y === 3 || y === 4]);
    // A point inside a tile selects that tile alone; at the antimeridian (-180 or 180) the edge column.
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([10, 10, 10, 10], 3, x, 3)]).toEqual([x, x === 4]);
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([180, 10, 180, 10], 3, x, 3)]).toEqual([x, x === 7]);
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([-180, 10, -180, 10], 3, x, 3)]).toEqual([x, x === 0]);
    // West > east inside one column: everything but a sliver of that column, so every column.
    for (let x = 0; x < 8; x++) expect([x, tileInBounds([12, 10, 11, 20], 3, x, 3)]).toEqual([x, true]);
  });

  test('covering tiles wrap x, clamp y and over-zoom', () => {
    const c = coveringTiles({ z: 2, x0: -10, y0: -10, width: 20, height: 20, tileSize: 256 }, 2);
    expect(c.map((t) => [t.x, t.wx, t.y])).toEqual([
      [-1, 3, 0],
      [0, 0, 0],
    ]);
    const o = coveringTiles({ z: 5, x0: 8 * 256, y0: 8 * 256, width: 256, height: 256, tileSize: 256 }, 3);
    expect(o.map((t) => [t.z, t.x, t.y, t.size])).toEqual([[3, 2, 2, 1024]]);
  });

  test('a one-tile canvas covers one source tile at every zoom (issue 19: an absolute 1e-9 is below the rounding step at z16 with 512 px tiles)', () => {
    // World pixels reach 512 * 2^z: at z16 that is 2^25, where one unit in the last place is 2^-28 > 1e-9,
    // so x1 - 1e-9 == x1 and the tile to the east (and south) was taken too.
    for (const tileSize of [256, 512]) {
      for (const z of [0, 4, 12, 16, 20, 24, 30]) {
        const n = 2 ** z;
        for (const [tx, ty] of [
          [0, 0],
          [n - 1, n - 1],
          [Math.floor(n / 3), Math.floor((2 * n) / 3)],
        ] as const) {
          const c = { z, x0: tx * tileSize, y0: ty * tileSize, width: tileSize, height: tileSize, tileSize };
          expect([tileSize, z, coveringTiles(c, z).map((t) => [t.x, t.y])]).toEqual([tileSize, z, [[tx, ty]]]);
          // Over-zoomed: the parent at z - 2 holds it.
          if (z >= 2) expect([tileSize, z, coveringTiles(c, z - 2).map((t) => [t.x, t.y])]).toEqual([tileSize, z, [[tx >> 2, ty >> 2]]]);
          // One pixel more reaches the neighbours.
          if (tx < n - 1 && ty < n - 1) expect(coveringTiles({ ...c, width: tileSize + 1, height: tileSize + 1 }, z)).toHaveLength(4);
        }
      }
    }
  });
});

describe('bounded reads (issue 13)', () => {
  test('an HTTP answer declaring more than the limit is refused before it is read; a range the server ignores is read only up to its end', async () => {
    let sent = 0;
    const server = http.createServer((req, res) => {
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-length': String(600 * 1024 * 1024) });
        res.write(Buffer.alloc(1024));
        return; // never finishes
      }
      // Ignores Range: streams 8 MiB in 64 KiB chunks.
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 7);
      const push = () => {
        while (sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', push);
        }
        res.end();
      };
      push();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const l = new NodeLoader({ baseDir: '.' });
      await expect(l.load(`${base}/huge`)).rejects.toThrow(/larger than 512 MiB \(the limit\)/);
      const b = await l.load(`${base}/stream`, { offset: 10, length: 5 });
      expect(Array.from(b)).toEqual([7, 7, 7, 7, 7]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
