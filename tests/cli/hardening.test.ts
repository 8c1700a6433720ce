// Issue 13 through the compiled CLI: --resume refuses another job (defect 5), a source that never
// answers fails after --timeout naming the cause (defect 6), and a bound passed is an exit code
// with a sentence, never a crash (defects 1, 8).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { requireBuild, shapesStyle, writeFixtures, type Fixture } from '../server/fixtures.js';
import { cli, px, readPng } from './helpers.js';

let fx: Fixture;
beforeAll(() => {
  requireBuild();
  fx = writeFixtures();
});

test('--resume with other params or another zoom range is refused (exit 1), naming the difference', async () => {
  const dir = path.join(fx.dir, 'job-dir');
  const file = path.join(fx.dir, 'job.pmtiles');
  const base = ['tiles', '--style', fx.shapes, '--min-zoom', '0', '--max-zoom', '1', '--concurrency', '1', '--progress', 'none'];
  const [d, p] = await Promise.all([cli([...base, '--out', dir, '--param', 'fill=#ff0000']), cli([...base, '--out', file, '--param', 'fill=#ff0000'])]);
  expect([d.code, p.code]).toEqual([0, 0]);
  const [d2, p2, z2, same] = await Promise.all([
    cli([...base, '--out', dir, '--param', 'fill=#00ff00', '--resume']),
    cli([...base, '--out', file, '--param', 'fill=#00ff00', '--resume']),
    cli([...base.slice(0, 5), '--max-zoom', '0', '--concurrency', '1', '--progress', 'none', '--out', dir, '--param', 'fill=#ff0000', '--resume']),
    cli([...base, '--out', dir, '--param', 'fill=#ff0000', '--resume']),
  ]);
  expect(d2.code).toBe(1);
  expect(d2.stderr).toMatch(
    /^tilegraph: usage error: cannot resume .*job-dir': it holds tiles of a different job \(params .*"fill":"#ff0000ff".*now .*"fill":"#00ff00ff"/,
  );
  expect(p2.code).toBe(1);
  expect(p2.stderr).toMatch(/cannot resume .*job\.pmtiles': the finished archive is of a different job \(params/);
  expect(z2.code).toBe(1);
  expect(z2.stderr).toMatch(/maxZoom 1, now 0/);
  expect(same.code).toBe(0);
  expect(same.stdout.trim()).toBe(dir);
});

test('a source that accepts and never answers fails after --timeout, saying so (exit 4)', async () => {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => sockets.push(s)); // accepts, never answers
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const write = (name: string, url: string) => {
    const p = path.join(fx.dir, name);
    writeFileSync(p, JSON.stringify(shapesStyle({ data: url })));
    return p;
  };
  try {
    const t0 = Date.now();
    const hangStyle = write('hang.json', `http://127.0.0.1:${port}/x.geojson`);
    const [hang, hangFetch, refused] = await Promise.all([
      // Issue 23: with both timeouts equal the render's fired first and hid the cause. The network
      // read's timeout is half the render's by default (at most 10 s), so the source error names it.
      cli(['tile', '--style', hangStyle, '--tile', '0/0/0', '--out', path.join(fx.dir, 'h.png'), '--timeout', '3']),
      cli(['tile', '--style', hangStyle, '--tile', '0/0/0', '--out', path.join(fx.dir, 'h2.png'), '--timeout', '20', '--fetch-timeout', '0.5']),
      cli(['tile', '--style', write('refused.json', `http://127.0.0.1:${closedPort}/x.geojson`), '--tile', '0/0/0', '--out', path.join(fx.dir, 'r.png')]),
    ]);
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(hang.code).toBe(4);
    expect(hang.stderr).toMatch(
      new RegExp(`^tilegraph: render error: .*source 'shapes'.*cannot fetch http://127\\.0\\.0\\.1:${port}/x\\.geojson: timed out after 1\\.5 s\n$`),
    );
    expect(hangFetch.code).toBe(4);
    expect(hangFetch.stderr).toMatch(/cannot fetch .*: timed out after 0\.5 s\n$/);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/connection refused/);
    expect(refused.stderr).not.toMatch(/fetch failed$/);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('a style past the margin limit is a style error (exit 2) with the pointer; a bad --timeout, --source-cache-mb, --worker-young-mb or --worker-heap-growth a usage error', async () => {
  const style = shapesStyle() as { params: Record<string, unknown>; nodes: Record<string, unknown> };
  style.params.soft = { type: 'number', default: 1, min: 0, max: 5000 };
  style.nodes.out = { op: 'blur', input: '@fill', sigma: '$soft' };
  style.nodes.fill = { op: 'fill-solid', features: '@f', fill: '$fill' };
  mkdirSync(path.join(fx.dir, 'm'), { recursive: true });
  const file = path.join(fx.dir, 'm', 'huge-margin.json');
  writeFileSync(file, JSON.stringify(style));
  const [r, t, c, y, g] = await Promise.all([
    cli(['tile', '--style', file, '--tile', '0/0/0', '--out', path.join(fx.dir, 'm.png')]),
    cli(['tile', '--style', fx.shapes, '--tile', '0/0/0', '--out', path.join(fx.dir, 'm.png'), '--timeout', '0']),
    cli(['serve', '--style', fx.shapes, '--port', '0', '--source-cache-mb', '-1']),
    cli(['serve', '--style', fx.shapes, '--port', '0', '--worker-young-mb', '4096']),
    cli(['serve', '--style', fx.shapes, '--port', '0', '--worker-heap-growth', '2.5']),
  ]);
  expect(c.code).toBe(1);
  expect(c.stderr).toMatch(/--source-cache-mb takes MiB from 0 to 1048576, not '-1'/);
  expect(y.code).toBe(1);
  expect(y.stderr).toMatch(/--worker-young-mb takes an integer number of MiB from 1 to 1024, not '4096'/);
  expect(g.code).toBe(1);
  expect(g.stderr).toMatch(/--worker-heap-growth takes an integer percent from 0 to 400, not '2.5'/);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^tilegraph: style error: \/nodes\/out\/sigma: 'sigma' max 5000 \(param 'soft'\) needs a 15,000 px margin; the limit is 1,024 px/);
  expect(t.code).toBe(1);
  expect(t.stderr).toMatch(/--timeout '0' is not a positive number/);
});

test('bbox across the antimeridian renders one window across the seam (issue 13 defect 9)', async () => {
  const square = {
    type: 'FeatureCollection',
    features: [
      {
        type: 'Feature',
        properties: {},
        // Cut at the antimeridian, as RFC 7946 (section 3.1.9) has producers write it.
        geometry: {
          type: 'MultiPolygon',
          coordinates: [
            [
              [
                [165, -20],
                [180, -20],
                [180, 20],
                [165, 20],
                [165, -20],
              ],
            ],
            [
              [
                [-180, -20],
                [-165, -20],
                [-165, 20],
                [-180, 20],
                [-180, -20],
              ],
            ],
          ],
        },
      },
    ],
  };
  const file = path.join(fx.dir, 'seam.json');
  writeFileSync(file, JSON.stringify(shapesStyle({ data: square })));
  const out = path.join(fx.dir, 'seam.png');
  const r = await cli(['bbox', '--style', file, '--bbox', '170,-10,-170,10', '--zoom', '2', '--out', out]);
  expect(r.code).toBe(0);
  const img = await readPng(readFileSync(out));
  expect(img.width).toBe(58);
  // Every pixel of the box lies inside the square, on both sides of the antimeridian.
  for (const x of [0, 20, 29, 30, 40, 57]) expect(px(img, x, Math.floor(img.height / 2))[3]).toBe(255);
});

test('serve: a bad --headers-timeout, --request-timeout or --max-connections is a usage error (issue 23)', async () => {
  const base = ['serve', '--style', fx.shapes, '--port', '0', '--workers', '0'];
  const [h, r, m] = await Promise.all([
    cli([...base, '--headers-timeout', '0']),
    cli([...base, '--headers-timeout', '30', '--request-timeout', '10']),
    cli([...base, '--max-connections', '1.5']),
  ]);
  expect([h.code, r.code, m.code]).toEqual([1, 1, 1]);
  expect(h.stderr).toMatch(/^tilegraph: usage error: --headers-timeout takes a positive number of seconds, not '0'/);
  expect(r.stderr).toMatch(/--request-timeout 10 is below --headers-timeout 30/);
  expect(m.stderr).toMatch(/--max-connections takes a positive integer, not '1.5'/);
});

test('a style of 10,000 chained blends is a style error naming the node limit, not a stack overflow (issue 23)', async () => {
  const nodes: Record<string, unknown> = { n0: { op: 'solid', color: '#ff0000' } };
  for (let i = 1; i < 10_000; i++) nodes[`n${i}`] = { op: 'blend', base: `@n${i - 1}`, over: '@n0' };
  const file = path.join(fx.dir, 'chain.json');
  writeFileSync(file, JSON.stringify({ output: 'n9999', nodes }));
  const r = await cli(['tile', '--style', file, '--tile', '0/0/0', '--out', path.join(fx.dir, 'chain.png')]);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe('tilegraph: style error: /nodes: the style has 10,000 nodes; the limit is 1,024 (functions included)\n');
});
