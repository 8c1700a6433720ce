// docs/first-style.md, run as a reader would (issue 23): every block of the guide in order, in a
// temp project laid out as `npm install ../tilegraph` leaves one. A block after
// `<!-- file: path -->` is written to that file; a ```sh block's lines run through the shell (a
// `serve` until it prints its URL, then its endpoints are probed and it is stopped); the CI
// workflow's `run:` lines run last. Only the set-up block marked `<!-- not run -->` is skipped
// (it needs the registry; the layout it makes is built here). Then the claims of the prose:
// the error lines it quotes, and the bool that switches the borders.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { requireBuild, ROOT } from '../server/fixtures.js';

const guide = readFileSync(path.join(ROOT, 'docs/first-style.md'), 'utf8');

interface Block {
  lang: string;
  body: string;
  /** `<!-- file: x -->` or `<!-- not run: why -->` just before the block. */
  file?: string;
  notRun?: string;
}

/** The fenced blocks in order, with the marker comment that precedes each, if any. */
function blocks(md: string): Block[] {
  const out: Block[] = [];
  for (const m of md.matchAll(/(?:<!-- (file|not run): ([^>]*?) -->\n)?```(\w+)\n([\s\S]*?)```/g)) {
    out.push({ lang: m[3]!, body: m[4]!, ...(m[1] === 'file' ? { file: m[2]!.trim() } : m[1] ? { notRun: m[2]!.trim() } : {}) });
  }
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const running: (() => void)[] = [];

/** A command line through the shell in `cwd`; `until` (stdout so far) answers early and leaves it running. */
function sh(cmd: string, cwd: string, o: { timeoutMs: number; until?: (out: string) => boolean }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', cmd], { cwd, env: { ...process.env, TILEGRAPH_BACKEND: '' }, detached: true });
    const stop = () => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // gone already
      }
    };
    let stdout = '';
    let stderr = '';
    let answered = false;
    const timer = setTimeout(stop, o.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (!answered && o.until?.(stdout)) {
        answered = true;
        running.push(stop);
        resolve({ code: null, stdout, stderr });
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (!answered) resolve({ code, stdout, stderr });
    });
  });
}

function fetchText(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) =>
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    }).on('error', reject),
  );
}

const servedUrl = (out: string) => /at (http:\/\/\S+\/)\n/.exec(out)?.[1];

async function rgba(file: string): Promise<Buffer> {
  return sharp(file).ensureAlpha().raw().toBuffer();
}

describe('docs/first-style.md runs as written', () => {
  let project: string;
  const log: { cmd: string; run: Run }[] = [];

  beforeAll(() => {
    requireBuild();
    // What `npm init -y && npm install ../tilegraph` leaves: a package.json, the package linked
    // into node_modules and its bin in node_modules/.bin.
    project = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-first-style-'));
    writeFileSync(path.join(project, 'package.json'), '{ "name": "my-maps", "private": true, "dependencies": { "tilegraph": "file:../tilegraph" } }\n');
    mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(ROOT, path.join(project, 'node_modules', 'tilegraph'));
    symlinkSync('../tilegraph/dist/hosts/cli/main.js', path.join(project, 'node_modules', '.bin', 'tilegraph'));
  });
  afterAll(() => {
    for (const stop of running) stop();
    rmSync(project, { recursive: true, force: true });
  });

  test('every block, in order', async () => {
    const all = blocks(guide);
    // The one block not run is the set-up, whose result beforeAll lays out.
    expect(all.filter((b) => b.notRun).map((b) => b.body.trim())).toEqual(['mkdir my-maps && cd my-maps\nnpm init -y\nnpm install ../tilegraph']);
    let workflow: string | undefined;
    for (const b of all) {
      if (b.notRun) continue;
      if (b.file) {
        const to = path.join(project, b.file);
        mkdirSync(path.dirname(to), { recursive: true });
        writeFileSync(to, b.body);
        if (b.lang === 'json') JSON.parse(b.body); // every JSON file of the guide is JSON
        if (b.file.startsWith('.github/workflows/')) workflow = b.body;
        continue;
      }
      expect({ lang: b.lang, handled: b.lang === 'sh' }).toEqual({ lang: b.lang, handled: true });
      for (const cmd of b.body.split('\n').filter((l) => l.trim())) {
        if (/ serve /.test(cmd)) {
          let r = await sh(cmd, project, { timeoutMs: 60_000, until: (o) => !!servedUrl(o) });
          // Port 8080 as written; if another program holds it here, the same command on a free port.
          if (/EADDRINUSE|cannot listen/.test(r.stderr)) r = await sh(`${cmd} --port 0`, project, { timeoutMs: 60_000, until: (o) => !!servedUrl(o) });
          expect(r.stdout).toMatch(/^tilegraph: serving 'Countries' \(version \w+\) at http:\/\/127\.0\.0\.1:\d+\/$/m);
          const base = servedUrl(r.stdout)!;
          expect((await fetchText(base)).status).toBe(200);
          const tile = await fetchText(`${base}tiles/2/2/1.png?borders=false`);
          expect([tile.status, tile.type]).toEqual([200, 'image/png']);
          const legend = JSON.parse((await fetchText(`${base}style/legend`)).body) as { entries: { label: string }[] };
          expect(legend.entries.map((e) => e.label)).toEqual(['Land', 'Country border']);
          const params = JSON.parse((await fetchText(`${base}style/params`)).body) as { properties: Record<string, { type: string }> };
          expect(Object.fromEntries(Object.entries(params.properties).map(([k, v]) => [k, v.type]))).toEqual({
            land: 'string',
            'border-width': 'number',
            borders: 'boolean',
          });
          running.pop()!();
          continue;
        }
        const run = await sh(cmd, project, { timeoutMs: 240_000 });
        log.push({ cmd, run });
        expect({ cmd, code: run.code, stderr: run.stderr }).toEqual({ cmd, code: 0, stderr: cmd.includes(' check ') ? expect.any(String) : '' });
      }
    }
    // The CI workflow: its run lines, after `npm ci` (the install beforeAll stands for).
    expect(workflow).toBeDefined();
    const runs = [...workflow!.matchAll(/^\s*- run: (.+)$/gm)].map((m) => m[1]!.trim());
    expect(runs).toEqual(['npm ci', 'npx tilegraph check golden/']);
    const ci = await sh(runs[1]!, project, { timeoutMs: 120_000 });
    expect(ci.code).toBe(0);
    expect(ci.stdout).toMatch(/2 passed, 0 failed/);
  }, 600_000);

  test('what the prose says happened', async () => {
    // Two golden cases, written by --update, then passing.
    for (const c of ['europe', 'europe-plain']) expect(existsSync(path.join(project, 'golden', c, 'expected.png'))).toBe(true);
    expect(log.find((l) => l.cmd.endsWith('check golden/ --update'))!.run.stdout).toMatch(/2 updated/);
    // The bool switches the borders off: the very image of step 2's style, which had none (libvips decodes both).
    expect((await rgba(path.join(project, 'europe-plain.png'))).equals(await rgba(path.join(project, 'europe.png')))).toBe(true);
    expect((await rgba(path.join(project, 'europe-wide.png'))).equals(await rgba(path.join(project, 'europe.png')))).toBe(false);
    // The error lines the guide quotes.
    const bad = await sh('npx tilegraph tile --style countries/style.json --tile 1/1/0 --param border-width=9 --out x.png', project, { timeoutMs: 60_000 });
    expect([bad.code, bad.stderr]).toEqual([3, "tilegraph: param error: param 'border-width': 9 is above its max 4\n"]);
    const style = readFileSync(path.join(project, 'countries/style.json'), 'utf8');
    writeFileSync(path.join(project, 'typo.json'), style.replace('"fill-solid"', '"fill-solld"'));
    const typo = await sh('npx tilegraph tile --style typo.json --tile 1/1/0 --out x.png', project, { timeoutMs: 60_000 });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("/nodes/land/op: unknown op 'fill-solld'; did you mean 'fill-solid'?");
    expect(guide).toContain("`/nodes/land/op: unknown op 'fill-solld'; did you mean 'fill-solid'?`");
  }, 120_000);
});
