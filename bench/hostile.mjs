// The hostile-client audit of issue 23, as a script: each probe against `tilegraph serve` on
// loopback (the compiled dist/), printing what a hostile client gets. Bounded: about a minute.
// Usage: npm run build && node bench/hostile.mjs   (HOSTILE_PROBES=slow,connections,params,range,sigterm
//   selects probes; HOSTILE_SLOW=200 slow sockets; HOSTILE_SERVE_ARGS extra `serve` flags)
// The tests keep each probe small (tests/server/hostile.test.ts); this runs them at the audit's size.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROBES = new Set((process.env.HOSTILE_PROBES || 'slow,connections,params,range,sigterm').split(','));
const SLOW = Number(process.env.HOSTILE_SLOW || 200);
const SERVE_ARGS = (process.env.HOSTILE_SERVE_ARGS || '').split(/\s+/).filter(Boolean);
const STYLE = path.join(root, 'examples/world/style.json');

/** `tilegraph serve` in a child process; its stderr is kept for the probes that read the log. */
async function startServer(extra = []) {
  const child = spawn(
    process.execPath,
    [path.join(root, 'dist/hosts/cli/main.js'), 'serve', '--style', STYLE, '--port', '0', '--backend', 'cpu', ...SERVE_ARGS, ...extra],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  let text = '';
  for await (const chunk of child.stdout) {
    text += chunk;
    const m = /at (http:\/\/\S+)/.exec(text);
    if (m) {
      const url = m[1];
      return {
        url,
        port: Number(new URL(url).port),
        child,
        log: () => log,
        async close(signal = 'SIGTERM') {
          if (child.exitCode === null) child.kill(signal);
          if (child.exitCode === null) await once(child, 'exit');
        },
      };
    }
  }
  throw new Error(`the server did not start: ${text}${log}`);
}

/** A socket sending `text` one byte every `everyMs`; resolves with the ms until the server closed it and what it answered. */
function slowClient(port, text, everyMs, giveUpMs) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const c = net.connect(port, '127.0.0.1');
    let got = '';
    let i = 0;
    const iv = setInterval(() => {
      if (!c.destroyed) c.write(text[i++ % text.length]);
    }, everyMs);
    const stop = setTimeout(() => c.destroy(), giveUpMs);
    c.on('data', (d) => (got += d.toString('latin1')));
    c.on('error', () => undefined);
    c.on('close', () => {
      clearInterval(iv);
      clearTimeout(stop);
      resolve({ ms: Date.now() - t0, status: /^HTTP\/1\.1 (\d+)/.exec(got)?.[1] ?? 'none' });
    });
  });
}

const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return `min ${(s[0] / 1000).toFixed(1)} s, median ${(s[s.length >> 1] / 1000).toFixed(1)} s, max ${(s[s.length - 1] / 1000).toFixed(1)} s`;
};
const count = (xs) =>
  Object.entries(xs.reduce((m, x) => ((m[x] = (m[x] ?? 0) + 1), m), {}))
    .map(([k, n]) => `${n} x ${k}`)
    .join(', ');

async function probeSlow() {
  const srv = await startServer(['--workers', '1']);
  try {
    // The audit: one header byte a second, forever (Node's defaults held each ~90 s).
    const r = await Promise.all(Array.from({ length: SLOW }, () => slowClient(srv.port, 'GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaa', 1000, 120_000)));
    console.log(`slow: ${SLOW} sockets sending one header byte a second: held ${summary(r.map((x) => x.ms))}; answers ${count(r.map((x) => x.status))}`);
  } finally {
    await srv.close();
  }
}

async function probeConnections() {
  const srv = await startServer(['--workers', '1', '--max-connections', '64']);
  try {
    const sockets = [];
    let refused = 0;
    await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          new Promise((resolve) => {
            const c = net.connect(srv.port, '127.0.0.1');
            c.on('error', () => undefined);
            c.on('data', () => undefined);
            c.on('connect', () => sockets.push(c));
            c.on('close', () => refused++);
            setTimeout(resolve, 500);
          }),
      ),
    );
    const health = await fetch(`${srv.url}health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status,
      (e) => e.cause?.code ?? e.message,
    );
    console.log(`connections: 200 idle sockets against --max-connections 64: ${refused} answered 503 and closed within 0.5 s; /health meanwhile: ${health}`);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    console.log(`connections: after they close, /health: ${(await fetch(`${srv.url}health`)).status}`);
  } finally {
    await srv.close();
  }
}

async function probeParams() {
  const srv = await startServer(['--workers', '1']);
  try {
    for (const n of [1500, 600]) {
      const query = Array.from({ length: n }, (_, i) => `p${i}=1`).join('&');
      const r = await fetch(`${srv.url}tiles/0/0/0.png?${query}`);
      const body = await r.text();
      console.log(
        `params: ${n} unknown params (a ${query.length.toLocaleString('en')}-byte query): ${r.status}, a ${body.length.toLocaleString('en')}-byte body`,
      );
    }
  } finally {
    await srv.close();
  }
}

async function probeRange() {
  const srv = await startServer(['--workers', '1']);
  try {
    const ref = encodeURIComponent('npm:world-atlas/countries-110m.json');
    for (const range of ['bytes=0-2147483647', 'bytes=0-4294967295', 'bytes=99999999-']) {
      const r = await fetch(`${srv.url}data/${ref}`, { headers: { Range: range } });
      const body = await r.arrayBuffer();
      console.log(
        `range: ${range}: ${r.status} ${r.headers.get('content-range') ?? ''}, ${body.byteLength.toLocaleString('en')} bytes; server alive: ${srv.child.exitCode === null}`,
      );
    }
  } finally {
    await srv.close();
  }
}

async function probeSigterm() {
  // More renders than one worker finishes in the 10 s grace period, then SIGTERM.
  const n = Number(process.env.HOSTILE_SIGTERM || 3000);
  const srv = await startServer(['--workers', '1', '--cache-mb', '0', '--queue', String(n), '--max-connections', String(n + 100)]);
  try {
    const urls = [];
    for (let y = 0; y < 64 && urls.length < n; y++) for (let x = 0; x < 64 && urls.length < n; x++) urls.push(`${srv.url}tiles/6/${x}/${y}.png`);
    const answers = urls.map((u) =>
      fetch(u).then(
        async (r) => (await r.arrayBuffer(), `${r.status}${r.headers.get('retry-after') ? ' Retry-After ' + r.headers.get('retry-after') : ''}`),
        (e) => `no answer (${e.cause?.code ?? e.message})`,
      ),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const t0 = Date.now();
    srv.child.kill('SIGTERM');
    const got = await Promise.all(answers);
    await srv.close();
    const lines = srv
      .log()
      .split('\n')
      .filter((l) => l && !/finishing requests/.test(l));
    console.log(
      `sigterm: ${n} tile requests, SIGTERM after 1 s: ${count(got)}; exit ${srv.child.exitCode ?? srv.child.signalCode} after ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    // The log by kind of line (tile addresses dropped), so 2,000 lines read as one.
    const kinds = count(lines.map((l) => l.replace(/\/tiles\/\S+/, '/tiles/...')));
    console.log(`sigterm: server log: ${kinds || '(nothing)'}`);
  } finally {
    await srv.close();
  }
}

const probes = { slow: probeSlow, connections: probeConnections, params: probeParams, range: probeRange, sigterm: probeSigterm };
for (const [name, fn] of Object.entries(probes)) if (PROBES.has(name)) await fn();
