// Tile server throughput at concurrency 16 from a loopback client, uncached and cached, for every
// bundled example (bench/gallery.mjs: examples/*/style.json, terrain on a local DEM copy); then
// pyramid export tiles/s of the world example. Runs the compiled dist/. Writes
// bench/out/server.json: [{style, uncached_tiles_per_s, p50_ms, p99_ms, cpu_ms_per_tile, ...}].
// Usage: npm run build && node bench/server.mjs   (BENCH_RUNS=3, BENCH_CONCURRENCY=16, BENCH_BACKEND=cpu,
//   BENCH_SERVE_ARGS="--workers 2" extra `serve` flags for A/B runs, BENCH_MEMORY_REQUESTS=10000 (0 skips),
//   BENCH_MEMORY=world,gallery,gallery-cached,world-no-source-cache (which memory runs; default world,gallery),
//   BENCH_PARTS=png,serve,memory,pyramid, BENCH_STYLES=<regex of example names>, BENCH_CACHED=0 skips
//   the cached rows, BENCH_THREADS=1 prints CPU per tile by thread, BENCH_NODE_ARGS="--cpu-prof" node
//   flags of the server after the Docker image's (BENCH_IMAGE_FLAGS=0 leaves those out) (BENCH_SERVER_LOG=<file> keeps its output after start-up), BENCH_WARM=3000 warm-up requests before each uncached run, over the zoom
//   above's tiles and the zoom below's; BENCH_WARM_COLD=0: the zoom above's alone)
// Tiles: where each example's data is, from its TileJSON (bounds, minzoom): the first zoom from
// minzoom on at which the bounds cover at least 96 tiles, at most the 256 nearest the bounds'
// centre (the world-wide examples: all 256 tiles of zoom 4; Chicago zoom 14, San Francisco 17,
// the DEM block 11). Warm-up requests go round the tiles of the zoom above.
// Bounded: each uncached run renders 256 tiles; a few minutes in all on idle cores.
// CPU per tile is the server process's (main thread + render workers) user + system time from
// /proc/<pid>/stat over the timed requests, so it stays meaningful on a loaded machine; the
// client's (this process: 16 raw keep-alive HTTP/1.1 connections, on the same cores) is client_cpu_ms_per_tile.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { galleryStyles, tileSet } from './gallery.mjs';
import { imageNodeFlags, median } from './lib.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { tilesCommand } = await import(path.join(root, 'dist/hosts/cli/tiles.js'));

const RUNS = Number(process.env.BENCH_RUNS || 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const BACKEND = process.env.BENCH_BACKEND || 'cpu';
const SERVE_ARGS = (process.env.BENCH_SERVE_ARGS || '').split(/\s+/).filter(Boolean);
// The server's node flags: the Docker image's (--single-threaded-gc; BENCH_IMAGE_FLAGS=0 leaves them
// out), then BENCH_NODE_ARGS.
const NODE_ARGS = [...(process.env.BENCH_IMAGE_FLAGS === '0' ? [] : imageNodeFlags(root)), ...(process.env.BENCH_NODE_ARGS || '').split(/\s+/).filter(Boolean)];
// 3,000 requests, not 64 (until 2026-11-26) or 1,000 (until 2026-11-27 16:00): after 64 the V8
// platform threads still spend ~0.8 ms a tile compiling (JIT) and the workers run colder code; after
// 1,000 Node's own HTTP code on the main thread is still interpreted (V8 optimises
// parserOnIncoming after ~1,500 requests) and TurboFan still compiles render code in the timed
// requests: world 1,000 -> 3,000 warm-up requests, nine alternated pairs, every thread group lower,
// median server CPU a tile ~4.7 -> ~3.8 ms (docs/server.md, "The bench's warm-up"). A running
// server does not pay either.
const WARM = Number(process.env.BENCH_WARM || 3000);
const WARM_COLD = process.env.BENCH_WARM_COLD !== '0';
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 10000);
const PARTS = new Set((process.env.BENCH_PARTS || 'png,serve,memory,pyramid').split(','));
// BENCH_ONLY (npm run bench's row filter) leaves this script out unless it matches 'S server'.
if (process.env.BENCH_ONLY && !new RegExp(process.env.BENCH_ONLY).test('S server')) process.exit(0);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-bench-'));

const styles = galleryStyles(tmp, process.env.BENCH_STYLES ? new RegExp(process.env.BENCH_STYLES) : undefined);
const world = galleryStyles(tmp, /^world$/)[0];
const CACHED = process.env.BENCH_CACHED !== '0';
const OUT = path.join(root, 'bench/out');

/**
 * Our PNG encoder against sharp's default (compressionLevel 6, no adaptive filtering) on the same
 * pixels: the 256 zoom-4 tiles of each style, rendered once in this process. Bytes in total, tiles
 * where ours is larger, CPU per encode (sharp's includes its worker threads; both include the
 * float -> 8-bit conversion).
 */
async function pngSizes() {
  const { default: sharp } = await import('sharp');
  const { CpuBackend, releaseRaster, tileWindow, toRGBA8 } = await import(path.join(root, 'dist/index.js'));
  const { loadStyleFile } = await import(path.join(root, 'dist/hosts/node/style-file.js'));
  const { encodePngSync } = await import(path.join(root, 'dist/hosts/node/png.js'));
  const backend = new CpuBackend();
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  console.log(`PNG encode of each example's bench tiles, ours vs sharp default (compressionLevel 6), same pixels`);
  for (const s of styles) {
    const { tiles } = await tileSet(s.file);
    const style = await loadStyleFile(s.file);
    const params = style.renderer.params({});
    let ours = 0;
    let theirs = 0;
    let larger = 0;
    let worst = 0;
    let oursMs = 0;
    let sharpMs = 0;
    for (const [z, x, y] of tiles) {
      const { raster } = await style.renderer.renderWindow(tileWindow({ z, x, y }, 256), params, { backend });
      let t = cpu();
      const a = encodePngSync(raster);
      oursMs += cpu() - t;
      t = cpu();
      const rgba = toRGBA8(raster);
      const b = await sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width: 256, height: 256, channels: 4 } })
        .png({ compressionLevel: 6 })
        .toBuffer();
      sharpMs += cpu() - t;
      releaseRaster(raster);
      ours += a.length;
      theirs += b.length;
      if (a.length > b.length) larger++;
      worst = Math.max(worst, a.length / b.length);
    }
    console.log(
      `  ${s.name.padEnd(34)} ours ${(ours / 1024).toFixed(0).padStart(6)} KiB ${(oursMs / tiles.length).toFixed(2)} ms/tile   sharp ${(theirs / 1024).toFixed(0).padStart(6)} KiB ${(sharpMs / tiles.length).toFixed(2)} ms/tile   ratio ${(ours / theirs).toFixed(3)}, larger on ${larger} tiles (worst ${worst.toFixed(3)})`,
    );
  }
}

/**
 * Memory of `serve` under load: MEMORY_REQUESTS renders (tile cache off unless said) over zooms
 * 0-5 (1,365 tiles a style) at concurrency CONCURRENCY, for each run of BENCH_MEMORY:
 * `world`: the world example alone (tile cache off); `gallery`: every bundled example at once, as
 * `npm start` serves them (terrain on the local DEM copy; requests round robin over the styles),
 * tile cache off; `gallery-cached`: the same with the default tile cache (128 MiB);
 * `world-no-source-cache`: the world example with `--source-cache-mb 0` too. At checkpoints:
 * RSS, and where it goes by thread from GET /metrics (tilegraph_thread_memory_bytes: each thread's
 * V8 heap, external and ArrayBuffer bytes; the render workers' source caches and free canvas
 * buffers); the rest of RSS is native (code, libvips, zlib, malloc, thread stacks). Peak: VmHWM,
 * which the kernel keeps. Writes bench/out/memory.json.
 */
async function memory() {
  const which = (process.env.BENCH_MEMORY || 'world,gallery').split(',');
  const all = galleryStyles(tmp).map((s) => s.file);
  const runs = {
    world: { styles: [world.file], extra: ['--cache-mb', '0'], what: 'world example, tile cache off' },
    'world-no-source-cache': { styles: [world.file], extra: ['--cache-mb', '0', '--source-cache-mb', '0'], what: 'world example, tile and source caches off' },
    gallery: { styles: all, extra: ['--cache-mb', '0'], what: `gallery of the ${all.length} examples, tile cache off` },
    'gallery-cached': { styles: all, extra: [], what: `gallery of the ${all.length} examples, tile cache 128 MiB` },
  };
  const out = [];
  for (const name of which) {
    const run = runs[name];
    if (!run) throw new Error(`BENCH_MEMORY: unknown run '${name}' (${Object.keys(runs).join(', ')})`);
    const srv = await startServer(run.styles, run.extra);
    try {
      const prefixes = run.styles.length > 1 ? (await (await fetch(`${srv.url}styles`)).json()).styles.map((s) => `styles/${s.id}/`) : [''];
      const urls = [0, 1, 2, 3, 4, 5].flatMap((z) => tilesOf(z).flatMap(([z, x, y]) => prefixes.map((p) => `${srv.url}${p}tiles/${z}/${x}/${y}.png`)));
      const marks = [1000, 2000, 4000, 7000, 10000, 15000, 20000, MEMORY_REQUESTS].filter((m, i, a) => m <= MEMORY_REQUESTS && a.indexOf(m) === i);
      const seen = [];
      let done = 0;
      let failed = 0;
      const t0 = performance.now();
      for (const m of marks) {
        // Continue the round robin where the last stretch ended, so every stretch sees new tiles.
        const shifted = urls.slice(done % urls.length).concat(urls.slice(0, done % urls.length));
        // A 503 (a render timed out on a loaded machine) is counted, not fatal: memory is measured here.
        failed += (await load(shifted, m - done, true)).failed;
        done = m;
        seen.push({ requests: m, rss_mib: +rss(srv.pid).rss.toFixed(0), ...(await threadMemory(`${srv.url}${prefixes[0]}metrics`)) });
      }
      const rate = MEMORY_REQUESTS / ((performance.now() - t0) / 1000);
      const peak = +rss(srv.pid).peak.toFixed(0);
      console.log(`memory of serve (${run.what}, zooms 0-5, concurrency ${CONCURRENCY}, ${rate.toFixed(0)} tiles/s), MiB:`);
      for (const c of seen)
        console.log(
          `  after ${c.requests.toLocaleString('en').padStart(6)}: RSS ${String(c.rss_mib).padStart(4)} = main thread heap and external ${c.main_heap_mib + c.main_external_mib} + workers heap ${c.workers_heap_mib} + workers external ${c.workers_external_mib} (source caches ${c.workers_source_cache_mib}, free buffers ${c.workers_buffer_pool_mib}) + native and the rest ${c.rss_mib - c.main_heap_mib - c.main_external_mib - c.workers_heap_mib - c.workers_external_mib}`,
        );
      console.log(`  peak RSS ${peak} MiB${failed ? ` (${failed} requests failed)` : ''}`);
      out.push({
        run: name,
        failed,
        what: run.what,
        date: new Date().toISOString(),
        cores: os.availableParallelism(),
        load_average: os.loadavg()[0],
        requests: MEMORY_REQUESTS,
        tiles_per_s: +rate.toFixed(1),
        peak_rss_mib: peak,
        checkpoints: seen,
      });
    } finally {
      await srv.close();
    }
  }
  mkdirSync(OUT, { recursive: true });
  writeFileSync(path.join(OUT, 'memory.json'), `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote bench/out/memory.json (${out.length} runs)`);
}

/** MiB by thread from GET /metrics: the main thread's heap and external bytes, the render workers' summed. */
async function threadMemory(url) {
  const text = await (await fetch(url)).text();
  const sum = {};
  for (const m of text.matchAll(/^tilegraph_thread_memory_bytes\{thread="(\w+)",kind="(\w+)"\} (\d+)$/gm)) {
    const k = `${m[1] === 'main' ? 'main' : 'workers'}_${m[2]}`;
    sum[k] = (sum[k] ?? 0) + Number(m[3]);
  }
  const mib = (k) => +((sum[k] ?? 0) / 1048576).toFixed(0);
  return {
    main_heap_mib: mib('main_heap_total'),
    main_external_mib: mib('main_external'),
    workers_heap_mib: mib('workers_heap_total'),
    workers_heap_used_mib: mib('workers_heap_used'),
    workers_external_mib: mib('workers_external'),
    workers_array_buffers_mib: mib('workers_array_buffers'),
    workers_source_cache_mib: mib('workers_source_cache'),
    workers_buffer_pool_mib: mib('workers_buffer_pool'),
  };
}

const tilesOf = (z) => {
  const out = [];
  for (let y = 0; y < 2 ** z; y++) for (let x = 0; x < 2 ** z; x++) out.push([z, x, y]);
  return out;
};

/** bench/speed.mjs's JS workload in a fresh process (ms; the machine's speed now), or null. */
function machineSpeed() {
  const r = spawnSync(process.execPath, [path.join(root, 'bench/speed.mjs')], { encoding: 'utf8' });
  return r.status === 0 ? JSON.parse(r.stdout).js : null;
}

/** `tilegraph serve` in a child process, so the client's work does not share the server's thread. `style`: a file, or several (a gallery). */
async function startServer(style, extra = []) {
  const styleArgs = (Array.isArray(style) ? style : [style]).flatMap((s) => ['--style', s]);
  const child = spawn(
    process.execPath,
    [...NODE_ARGS, path.join(root, 'dist/hosts/cli/main.js'), 'serve', ...styleArgs, '--port', '0', '--backend', BACKEND, ...SERVE_ARGS, ...extra],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let text = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout.iterator({ destroyOnReturn: false })) {
    text += chunk;
    const m = /(?:version (\w+)\) )?at (http:\/\/\S+)/.exec(text);
    if (m) {
      // The server's later output (BENCH_NODE_ARGS=--trace-gc, say) is drained, so a full pipe never
      // blocks it; BENCH_SERVER_LOG=<file> keeps it.
      if (process.env.BENCH_SERVER_LOG) child.stdout.pipe(createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }));
      else child.stdout.resume();
      return {
        url: m[2],
        version: m[1],
        pid: child.pid,
        async close() {
          child.kill('SIGTERM');
          await once(child, 'exit');
        },
      };
    }
  }
  throw new Error(`the server did not start: ${text}`);
}

/** CPU seconds (user + system) of a process (all its threads) or of one thread (/proc/<pid>/task/<tid>). */
function cpuSeconds(pid, tid) {
  const stat = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
}

/** CPU seconds so far: the whole process, its main thread (HTTP, express, the pool's messages), and by thread name. */
function cpuNow(pid) {
  const byName = {};
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const key = Number(tid) === pid ? 'main' : `${name}/${tid}`;
      byName[key] = (byName[key] ?? 0) + cpuSeconds(pid, tid);
    } catch {} // a thread that ended
  }
  return { all: cpuSeconds(pid), main: cpuSeconds(pid, pid), byName };
}

/**
 * CPU ms per tile of the main thread, the render workers and everything else (V8's platform threads:
 * concurrent GC and compilation; libuv's pool: zlib of the cache-less path, fs). The render workers
 * are the last threads the process started (the pool starts them after Node's own threads; all
 * threads are named `node`): the `workers` (default: the cores) highest thread ids.
 */
function threadGroups(c0, c1, n) {
  const workers = Number(/--workers\s+(\d+)/.exec(SERVE_ARGS.join(' '))?.[1] ?? os.availableParallelism());
  const tid = (k) => Number(k.split('/')[1]);
  const others = Object.keys(c1.byName).filter((k) => k !== 'main');
  const workerKeys = new Set(others.sort((a, b) => tid(b) - tid(a)).slice(0, workers));
  const ms = (keys) => (keys.reduce((a, k) => a + (c1.byName[k] - (c0.byName[k] ?? 0)), 0) * 1000) / n;
  return { mainMs: ms(['main']), workersMs: ms([...workerKeys]), otherMs: ms(others.filter((k) => !workerKeys.has(k))) };
}

/** CPU ms per tile by thread name between two cpuNow()s, for BENCH_THREADS=1. */
function threadsLine(c0, c1, n) {
  return Object.keys(c1.byName)
    .map((k) => [k, ((c1.byName[k] - (c0.byName[k] ?? 0)) * 1000) / n])
    .filter(([, ms]) => ms > 0.005)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, ms]) => `${k} ${ms.toFixed(2)}`)
    .join(', ');
}

/** Resident set size now and at its peak, in MiB (/proc/<pid>/status VmRSS, VmHWM). */
function rss(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A connection's read buffer (256 KiB: a tile's response in one or two reads). */
const readBuffer = () => Buffer.allocUnsafe(256 * 1024);

/**
 * One keep-alive HTTP/1.1 connection of the load client over a raw socket, one GET at a time: the
 * response head parsed for its status and length (Content-Length, else chunked, else to the
 * close), the body counted and dropped, its first 300 bytes kept when not 200. What load
 * generators such as wrk and autocannon do: node:http's parser, request and response objects cost
 * the client ~0.45 ms of CPU a request on the two cores the server runs on, this ~0.1
 * (2026-11-27: 0.41-0.53 -> see the README's server table).
 */
class Conn {
  constructor(host, port) {
    this.host = host;
    this.port = port;
    this.socket = undefined;
    this.pending = undefined;
  }

  get(pathname) {
    if (!this.socket) this.open();
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, chunks: [], head: undefined, status: 0, length: -1, chunked: false, bytes: 0, body: [], bodyBytes: 0 };
      this.socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n\r\n`);
    });
  }

  open() {
    // One reused read buffer a connection (net's onread): no Buffer allocated per read; data()
    // copies what it keeps (a head split across reads, a failed request's first bytes).
    const socket = net.connect({ port: this.port, host: this.host, onread: { buffer: readBuffer(), callback: (n, buf) => this.data(buf.subarray(0, n)) } });
    socket.setNoDelay(true);
    const fail = (e) => {
      if (this.socket === socket) this.socket = undefined;
      const p = this.pending;
      this.pending = undefined;
      if (!p) return;
      if (p.head && p.length < 0 && !p.chunked)
        p.resolve(this.result(p)); // a body that runs to the close
      else p.reject(e ?? new Error('the server closed the connection'));
    };
    socket.on('error', fail);
    socket.on('close', () => fail());
    this.socket = socket;
  }

  result(p) {
    return { status: p.status, bytes: p.bytes, head: p.status === 200 ? '' : Buffer.concat(p.body).toString().slice(0, 300) };
  }

  data(d) {
    const p = this.pending;
    if (!p) return;
    if (!p.head) {
      const all = p.chunks.length ? Buffer.concat([...p.chunks, d]) : d;
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) {
        p.chunks.push(Buffer.from(d)); // a copy: the read buffer is reused
        return;
      }
      p.head = all.toString('latin1', 0, end);
      p.status = Number(p.head.slice(9, 12));
      const len = /\r\ncontent-length:\s*(\d+)/i.exec(p.head);
      p.length = len ? Number(len[1]) : -1;
      p.chunked = !len && /\r\ntransfer-encoding:\s*chunked/i.test(p.head);
      p.close = /\r\nconnection:\s*close/i.test(p.head);
      p.raw = [];
      d = all.subarray(end + 4);
    }
    if (p.chunked) {
      p.raw.push(Buffer.from(d));
      const all = Buffer.concat(p.raw);
      // Chunked: sizes in hex, each chunk followed by CRLF; a zero-size chunk ends the body.
      let at = 0;
      let bytes = 0;
      for (;;) {
        const eol = all.indexOf('\r\n', at);
        if (eol < 0) return;
        const size = parseInt(all.toString('latin1', at, eol), 16);
        if (size === 0) {
          if (all.length < eol + 4) return;
          p.bytes = bytes;
          if (p.status !== 200) p.body = [all];
          break;
        }
        if (all.length < eol + 2 + size + 2) return;
        bytes += size;
        at = eol + 2 + size + 2;
      }
    } else {
      p.bytes += d.length;
      if (p.status !== 200 && p.bodyBytes < 300) {
        p.body.push(Buffer.from(d));
        p.bodyBytes += d.length;
      }
      if (p.length < 0 || p.bytes < p.length) return;
    }
    this.pending = undefined;
    if (p.close) this.close();
    p.resolve(this.result(p));
  }

  close() {
    const s = this.socket;
    this.socket = undefined;
    s?.destroy();
  }
}

/**
 * `count` requests over `urls` (round robin) from CONCURRENCY loopback clients; throws on a failed
 * request unless `tolerate` (then counts them). CONCURRENCY raw keep-alive connections (Conn)
 * sockets, reading each body to its end without keeping it: until 2026-11-27 the client was
 * `fetch` with a cloned response, ~2.2 ms of CPU a textured tile on the same two cores as the
 * server (~0.3 ms now; the server's CPU a tile does not change, its share of the cores does).
 */
async function load(urls, count, tolerate = false) {
  const lat = [];
  let next = 0;
  let failed = 0;
  const parsed = urls.map((u) => new URL(u));
  const { hostname, port } = parsed[0];
  const paths = parsed.map((u) => u.pathname + u.search);
  const conns = Array.from({ length: CONCURRENCY }, () => new Conn(hostname, Number(port)));
  const t0 = performance.now();
  try {
    await Promise.all(
      conns.map(async (conn) => {
        while (next < count) {
          const i = next++ % urls.length;
          const s = performance.now();
          const r = await conn.get(paths[i]);
          if (r.status !== 200 && failed++ === 0) console.error(`  ${urls[i]}: ${r.status} ${r.head}`);
          lat.push(performance.now() - s);
        }
      }),
    );
  } finally {
    for (const c of conns) c.close();
  }
  const secs = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  if (failed && !tolerate) throw new Error(`${failed} of ${count} requests failed`);
  return { rate: count / secs, p50: pct(lat, 50), p99: pct(lat, 99), failed };
}

const row = (label, runs) =>
  console.log(
    `  ${label.padEnd(34)} ${median(runs.map((r) => r.rate))
      .toFixed(1)
      .padStart(8)} tiles/s   p50 ${median(runs.map((r) => r.p50))
      .toFixed(1)
      .padStart(7)} ms   p99 ${median(runs.map((r) => r.p99))
      .toFixed(1)
      .padStart(
        7,
      )} ms${runs[0].cpuMs !== undefined ? `   CPU ${median(runs.map((r) => r.cpuMs)).toFixed(2)} ms/tile (main thread ${median(runs.map((r) => r.mainMs)).toFixed(2)}, render workers ${median(runs.map((r) => r.workersMs)).toFixed(2)}, other threads ${median(runs.map((r) => r.otherMs)).toFixed(2)}; the client ${median(runs.map((r) => r.clientMs)).toFixed(2)})` : ''}   (median of ${runs.length})${runs[0].speedJs != null ? `   machine js ${runs.map((r) => r.speedJs).join(' / ')} ms` : ''}`,
  );

if (PARTS.has('png')) await pngSizes();

if (PARTS.has('serve'))
  console.log(
    `tile server: ${os.availableParallelism()} cores, concurrency ${CONCURRENCY}, backend ${BACKEND}, 256 px tiles, loopback${SERVE_ARGS.length ? `, serve ${SERVE_ARGS.join(' ')}` : ''}`,
  );
const results = [];
for (const s of PARTS.has('serve') ? styles : []) {
  const set = await tileSet(s.file);
  const uncached = [];
  const cached = [];
  for (let run = 0; run < RUNS; run++) {
    // A fresh server per run with no tile cache: each request renders.
    const srv = await startServer(s.file, ['--cache-mb', '0']);
    try {
      // Warm the workers: the zoom above's tiles, then the zoom below's, each rendered cold once
      // (first a source-cache miss), so that the code of a cold render (tiling the sources,
      // building labels) is compiled before the timed tiles, as in a server that has run a while.
      // Only the zoom above's tiles (BENCH_WARM_COLD=0, the warm-up until 2026-11-27) repeat
      // ~60 tiles whose sources stay cached: the timed cold tiles then paid ~1 ms of V8's
      // background compilation each (docs/server.md, "The world row's other threads").
      const warmTiles = WARM_COLD ? [...set.warm, ...set.below] : set.warm;
      await load(
        warmTiles.map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png`),
        WARM,
      );
      const c0 = cpuNow(srv.pid);
      const client0 = process.cpuUsage();
      const r = await load(
        set.tiles.map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png`),
        256,
      );
      const client = process.cpuUsage(client0);
      const c1 = cpuNow(srv.pid);
      if (process.env.BENCH_THREADS === '1') console.log(`  CPU ms/tile by thread: ${threadsLine(c0, c1, 256)}`);
      // The client (this process: 16 raw keep-alive connections, Conn) runs on the same cores: its CPU too.
      const clientMs = (client.user + client.system) / 1000 / 256;
      uncached.push({ ...r, cpuMs: ((c1.all - c0.all) * 1000) / 256, clientMs, ...threadGroups(c0, c1, 256), speedJs: machineSpeed() });
    } finally {
      await srv.close();
    }
  }
  row(`${s.name}, uncached (z${set.zoom}, ${set.tiles.length} tiles)`, uncached);
  const m = (k) => +median(uncached.map((r) => r[k])).toFixed(2);
  const result = {
    style: s.name,
    uncached_tiles_per_s: +median(uncached.map((r) => r.rate)).toFixed(1),
    p50_ms: +median(uncached.map((r) => r.p50)).toFixed(1),
    p99_ms: +median(uncached.map((r) => r.p99)).toFixed(1),
    cpu_ms_per_tile: m('cpuMs'),
    cpu_ms_per_tile_main: m('mainMs'),
    cpu_ms_per_tile_workers: m('workersMs'),
    cpu_ms_per_tile_other: m('otherMs'),
    client_cpu_ms_per_tile: m('clientMs'),
    // bench/speed.mjs's JS workload (ms, lower is faster) right after each run's timed requests:
    // the VM's speed moves by a third within minutes, and a row timed in its slow state reads low.
    machine_js_ms: uncached.map((r) => r.speedJs),
    zoom: set.zoom,
    tiles: set.tiles.length,
    runs: RUNS,
  };
  results.push(result);
  if (!CACHED) continue;
  const srv = await startServer(s.file);
  try {
    const urls = set.tiles.map(([z, x, y]) => `${srv.url}tiles/${z}/${x}/${y}.png?v=${srv.version}`);
    await load(urls, urls.length); // fill the cache
    for (let run = 0; run < RUNS; run++) cached.push(await load(urls, 2000));
  } finally {
    await srv.close();
  }
  row(`${s.name}, cached`, cached);
  result.cached_tiles_per_s = +median(cached.map((r) => r.rate)).toFixed(1);
}
if (results.length) {
  mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, 'server.json');
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`wrote ${path.relative(root, file)} (${results.length} rows)`);
}

if (PARTS.has('memory') && MEMORY_REQUESTS > 0) await memory();

if (PARTS.has('pyramid')) console.log(`pyramid export (tiles to .pmtiles, zoom 0-4 = 341 tiles, ${os.availableParallelism()} worker threads)`);
for (const s of PARTS.has('pyramid') && world ? [world] : []) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    const out = path.join(tmp, `pyramid-${run}.pmtiles`);
    const t0 = performance.now();
    await tilesCommand({
      style: s.file,
      bbox: '-180,-85.0511287798066,180,85.0511287798066',
      minZoom: 0,
      maxZoom: 4,
      out,
      tileSize: 256,
      backend: BACKEND,
      progress: 'none',
    });
    rates.push(341 / ((performance.now() - t0) / 1000));
    rmSync(out, { force: true });
  }
  console.log(`  ${s.name.padEnd(34)} ${median(rates).toFixed(1).padStart(8)} tiles/s   (median of ${rates.length}, worker start-up included)`);
}
rmSync(tmp, { recursive: true, force: true });
