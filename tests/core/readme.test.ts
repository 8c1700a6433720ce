// The README as a user meets it: its small style is a real, complete style, and every command
// of its shell blocks (and of its CI snippet) runs as written (issue 23: `check golden/` failed).
// Commands that write files run in a temp project laid out as `npm install tilegraph` leaves
// one (node_modules/tilegraph, node_modules/.bin/tilegraph), with the examples beside it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { Renderer } from '../../src/index.js';
import { NodeLoader } from '../../src/hosts/node/loader.js';
import { fixturesPresent } from '../helpers/fixtures.js';
import { requireBuild, ROOT } from '../server/fixtures.js';

const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

test("the README's complete small style renders a tile", async () => {
  const block = /## A complete small style\n\n```json\n([\s\S]*?)\n```/.exec(readme);
  expect(block).not.toBeNull();
  const r = Renderer.create(block![1]!, { loader: new NodeLoader({ baseDir: process.cwd() }) });
  const raster = await r.renderTile({ z: 1, x: 1, y: 0 }, r.params({ land: '#e0d8c0' }));
  // Europe at z1: land pixels (opaque, the land colour) and sea pixels both occur.
  let land = 0;
  let sea = 0;
  for (let i = 0; i < raster.data.length; i += 4) {
    const [cr, cg, cb] = [raster.data[i]!, raster.data[i + 1]!, raster.data[i + 2]!].map((v) => Math.round(v * 255));
    if (cr === 0xe0 && cg === 0xd8 && cb === 0xc0) land++;
    else if (cb! > cr!) sea++;
  }
  expect(land).toBeGreaterThan(1000);
  expect(sea).toBeGreaterThan(1000);
});

/** Every line of the README's ```sh blocks (comments dropped), then the `run:` lines of its ```yaml blocks. */
export function readmeCommands(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of m[1]!.split('\n')) {
      const cmd = line.replace(/\s+#\s.*$/, '').trim();
      if (cmd) out.push(cmd);
    }
  for (const m of text.matchAll(/```yaml\n([\s\S]*?)```/g)) for (const r of m[1]!.matchAll(/^\s*-?\s*run:\s*(.+)$/gm)) out.push(r[1]!.trim());
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command line through the shell, as a user types it; `until` ends a long-running one. */
function sh(cmd: string, cwd: string, o: { timeoutMs: number; until?: (stdout: string) => boolean; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', cmd], { cwd, env: { ...process.env, TILEGRAPH_BACKEND: '', ...o.env }, detached: true });
    let stdout = '';
    let stderr = '';
    let done = false;
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM'); // the process group: sh, npm/npx and node
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(stop, o.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (!done && o.until?.(stdout)) {
        done = true;
        resolve({ code: null, stdout, stderr });
        // The caller probes the running server, then calls the returned stop through `servers`.
        servers.push(stop);
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!done) resolve({ code, stdout, stderr });
    });
  });
}

const servers: (() => void)[] = [];

function httpStatus(url: string): Promise<{ status: number; type: string }> {
  return new Promise((resolve, reject) =>
    get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) }));
    }).on('error', reject),
  );
}

/** The URL a `serve` printed: `tilegraph: serving ... at http://127.0.0.1:PORT/`. */
const servedUrl = (stdout: string) => /at (http:\/\/\S+\/)\n/.exec(stdout)?.[1];

describe("every command of the README's shell blocks runs as written", () => {
  const commands = readmeCommands(readme);
  let project: string;

  beforeAll(() => {
    requireBuild();
    // A user's project with tilegraph installed: what `npm install tilegraph` leaves.
    project = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-readme-'));
    writeFileSync(path.join(project, 'package.json'), '{ "name": "my-maps", "private": true }\n');
    mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(ROOT, path.join(project, 'node_modules', 'tilegraph'));
    symlinkSync('../tilegraph/dist/hosts/cli/main.js', path.join(project, 'node_modules', '.bin', 'tilegraph'));
    symlinkSync(path.join(ROOT, 'examples'), path.join(project, 'examples'));
  });
  afterAll(() => {
    for (const stop of servers) stop();
    rmSync(project, { recursive: true, force: true });
  });

  test('the README shows the commands this test runs (a new one must be added here)', () => {
    expect([...new Set(commands)]).toEqual([
      'npm install && npm start',
      'npm test',
      'npx tilegraph tile  --style examples/world/style.json --tile 2/2/1 --param land=#e0d8c0 --out tile.png',
      'npx tilegraph bbox  --style examples/world/style.json --bbox -10,35,30,60 --zoom 4 --out europe.png',
      'npx tilegraph tiles --style examples/world/style.json --max-zoom 4 --out world.pmtiles',
      'npx tilegraph serve --style examples/world/style.json --port 8080 --watch',
      'npx tilegraph check golden/',
      'npm ci',
    ]);
  });

  // `npm install` (and the CI snippet's `npm ci`) is how this checkout was set up (it needs the
  // registry) and `npm test` is this very run: of the set-up line, `npm start` runs.
  test('npm start serves the bundled examples as a gallery and prints its URL', async () => {
    // Port 8080 as written; if another program holds it here, the same command on a free port.
    let r = await sh('npm start', ROOT, { timeoutMs: 60_000, until: (out) => !!servedUrl(out) });
    if (/EADDRINUSE|cannot listen/.test(r.stderr)) r = await sh('npm start', ROOT, { timeoutMs: 60_000, until: (out) => !!servedUrl(out), env: { PORT: '0' } });
    expect(r.stdout).toMatch(
      /^tilegraph: serving 8 styles \(handdrawn, heatmap, maplibre-effects, stipple, terrain, toner, watercolor, world\) at http:\/\/127\.0\.0\.1:\d+\/$/m,
    );
    const base = servedUrl(r.stdout)!;
    expect(await httpStatus(base)).toEqual({ status: 200, type: expect.stringMatching(/^text\/html/) });
    expect(await httpStatus(`${base}styles/world/tiles/2/2/1.png`)).toEqual({ status: 200, type: 'image/png' });
    servers.pop()!();
  }, 90_000);

  test('tile, bbox and tiles write what they say', async () => {
    const files: Record<string, [number, number]> = { 'tile.png': [256, 256], 'europe.png': [456, 434] };
    for (const cmd of commands.filter((c) => / (tile|bbox|tiles) /.test(c))) {
      const r = await sh(cmd, project, { timeoutMs: 240_000 });
      expect({ cmd, code: r.code, stderr: r.stderr.replace(/\r?[^\n]*\r/g, '') }).toEqual({ cmd, code: 0, stderr: expect.any(String) });
    }
    for (const [file, [w, h]] of Object.entries(files)) {
      const meta = await sharp(path.join(project, file)).metadata(); // libvips reads what was written
      expect({ file, format: meta.format, width: meta.width, height: meta.height }).toEqual({ file, format: 'png', width: w, height: h });
    }
    // PMTiles v3: the magic and version, then 341 tiles (zooms 0-4) addressed in its header.
    const pm = readFileSync(path.join(project, 'world.pmtiles'));
    expect(pm.subarray(0, 8).toString('latin1')).toBe('PMTiles\u0003');
    expect(Number(pm.readBigUInt64LE(72))).toBe(1 + 4 + 16 + 64 + 256);
  }, 300_000);

  test('serve answers on the port it names and serves tiles and the preview', async () => {
    const cmd = commands.find((c) => c.includes(' serve '))!;
    let r = await sh(cmd, project, { timeoutMs: 60_000, until: (out) => !!servedUrl(out) });
    if (/EADDRINUSE|cannot listen/.test(r.stderr))
      r = await sh(cmd.replace('--port 8080', '--port 0'), project, { timeoutMs: 60_000, until: (out) => !!servedUrl(out) });
    expect(r.stdout).toMatch(/^tilegraph: serving 'World' \(version \w+\) at http:\/\/127\.0\.0\.1:\d+\/$/m);
    const base = servedUrl(r.stdout)!;
    expect(await httpStatus(`${base}tiles/2/2/1.png?land=%23e0d8c0`)).toEqual({ status: 200, type: 'image/png' });
    expect((await httpStatus(base)).status).toBe(200);
    servers.pop()!();
  }, 90_000);

  test("the Library snippet runs as a user's ES module (its TypeScript is plain JavaScript)", async () => {
    const code = /## Library\n\n```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    writeFileSync(path.join(project, 'library.mjs'), `${code}\nprocess.stdout.write(JSON.stringify([raster.width, raster.height, png.length]));\n`);
    const r = await sh('node library.mjs', project, { timeoutMs: 60_000 });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [w, h, bytes] = JSON.parse(r.stdout) as number[];
    expect([w, h]).toEqual([512, 512]);
    expect(bytes).toBeGreaterThan(1000);
  }, 90_000);

  // The golden suite through the README's command, in the checkout (its cases read ../shared
  // fixtures). Without ../shared/fixtures the cases on that data are left out, loudly.
  test('check golden/ passes every case on the CPU backend', async () => {
    const GOLDEN = path.join(ROOT, 'golden');
    const cases = listCases(GOLDEN);
    const runnable = fixturesPresent ? cases : cases.filter((c) => !needsFixtures(GOLDEN, c));
    for (const cmd of new Set(commands.filter((c) => c.includes(' check ')))) {
      const r = await sh(fixturesPresent ? cmd : `${cmd} ${runnable.map((c) => `--case ${c}`).join(' ')}`, ROOT, { timeoutMs: 290_000 });
      expect(r.stderr).not.toMatch(/^(fail|error|missing)/m);
      expect(r.code).toBe(0);
      const rows = new Map<string, string>();
      for (const line of r.stdout.split('\n')) {
        const cells = line.trim().split(/\s+/);
        if (cells[1] === 'cpu') rows.set(cells[0]!, cells[2]!);
      }
      expect([...rows.keys()].sort()).toEqual(runnable);
      expect(new Set(rows.values())).toEqual(new Set(['PASS']));
      expect(r.stdout).toMatch(new RegExp(`${runnable.length} passed, 0 failed`));
    }
  }, 300_000);
});

function listCases(dir: string): string[] {
  return readdirSync(dir)
    .filter((d) => existsSync(path.join(dir, d, 'case.json')))
    .sort();
}

function needsFixtures(dir: string, c: string): boolean {
  return (JSON.parse(readFileSync(path.join(dir, c, 'case.json'), 'utf8')) as { needsFixtures?: boolean }).needsFixtures === true;
}
