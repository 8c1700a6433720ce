#!/usr/bin/env node
// The `tilegraph` command: tile, bbox, tiles, merge, serve (docs/cli.md).
import { readFileSync } from 'node:fs';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { BACKEND_CHOICES, type BackendChoice } from '../protocol.js';
import { EXIT, exitCodeOf, oneLine, StyleFileError, UsageError } from './exit.js';
import { joinNegativeValues, parseZoom } from './args.js';
import { LIMITS } from '../../limits.js';
import { nearest } from '../../util/levenshtein.js';

// Commands import their modules when they run: `--help` and usage errors answer at once, and
// `serve` does not load the pyramid writer (nor `tile` express).
const envBackend = (process.env.TILEGRAPH_BACKEND ?? '').trim().toLowerCase() as BackendChoice;
const defaultBackend: BackendChoice = BACKEND_CHOICES.includes(envBackend) ? envBackend : 'auto';

/** The subcommands, for a suggestion when one is mistyped. */
const COMMANDS = ['tile', 'bbox', 'tiles', 'merge', 'convert', 'check', 'serve'];

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Run a command; any failure becomes one line on stderr and its exit code. */
async function run(fn: () => Promise<string | void>): Promise<void> {
  try {
    const out = await fn();
    if (out) process.stdout.write(out + '\n');
  } catch (e) {
    process.stderr.write(oneLine(e) + '\n');
    process.exitCode = exitCodeOf(e);
  }
}

const common = <T>(y: Argv<T>) =>
  y
    .option('style', { type: 'string', demandOption: true, describe: 'style document (JSON)' })
    .option('param', { type: 'string', array: true, describe: 'override a param: name=value (repeatable)' })
    .option('backend', { choices: BACKEND_CHOICES, default: defaultBackend, describe: 'render backend (env TILEGRAPH_BACKEND)' })
    .option('allow-outside', { type: 'boolean', default: false, describe: "let sources read files outside the style's directory" })
    .option('timeout', { type: 'number', default: 30, describe: 'seconds one render may take' })
    .option('fetch-timeout', { type: 'number', describe: 'seconds each network read of a source may take (default: half of --timeout, at most 10)' });

const quality = { type: 'number', describe: 'quality of a lossy format (JPEG, WebP), 1-100; default 90' } as const;

const tileSize = { choices: [256, 512], default: 256, describe: 'tile size in pixels (the world is tile-size x 2^zoom pixels wide)' } as const;
const pixelRatio = {
  type: 'string',
  default: '1',
  describe: "pixel density 1-4 (MapLibre's @2x is 2): the same area in that many times the pixels, every size in pixels scaled",
} as const;

const cli = yargs(joinNegativeValues(hideBin(process.argv)))
  .scriptName('tilegraph')
  .version(pkg.version)
  .usage('$0 <command> [options]')
  .command(
    'tile',
    'render one tile to an image (PNG, JPEG or WebP)',
    (y) =>
      common(y)
        .option('tile', { type: 'string', demandOption: true, describe: 'tile address z/x/y' })
        .option('out', { type: 'string', demandOption: true, describe: 'output image: .png, .jpg (.jpeg) or .webp, by its extension' })
        .option('quality', quality)
        .option('tile-size', tileSize)
        .option('pixel-ratio', pixelRatio),
    (a) => run(async () => (await import('./render.js')).tileCommand({ ...a, backend: a.backend as BackendChoice, tileSize: a.tileSize })),
  )
  .command(
    'bbox',
    'render a bounding box at one zoom to one image (PNG, JPEG or WebP)',
    (y) =>
      common(y)
        .option('bbox', { type: 'string', demandOption: true, describe: 'west,south,east,north in degrees' })
        .option('zoom', { type: 'string', demandOption: true, describe: 'zoom level' })
        .option('out', { type: 'string', demandOption: true, describe: 'output image: .png, .jpg (.jpeg) or .webp, by its extension' })
        .option('quality', quality)
        .option('tile-size', tileSize)
        .option('pixel-ratio', pixelRatio)
        .option('max-pixels', { type: 'number', default: LIMITS.maxCanvasPixels, describe: 'refuse a window larger than this many pixels' }),
    (a) => run(async () => (await import('./render.js')).bboxCommand({ ...a, backend: a.backend as BackendChoice })),
  )
  .command(
    'tiles',
    'render a tile pyramid into a directory (z/x/y.png), a .pmtiles or an .mbtiles archive',
    (y) =>
      common(y)
        .option('bbox', { type: 'string', default: '-180,-85.0511287798066,180,85.0511287798066', describe: 'west,south,east,north in degrees' })
        .option('min-zoom', { type: 'string', default: '0', describe: 'lowest zoom' })
        .option('max-zoom', { type: 'string', demandOption: true, describe: 'highest zoom' })
        .option('out', {
          type: 'string',
          demandOption: true,
          describe: 'output directory, or a file ending in .pmtiles or .mbtiles; {shard} is replaced by the shard index',
        })
        .option('tile-size', tileSize)
        .option('pixel-ratio', pixelRatio)
        .option('resume', { type: 'boolean', default: false, describe: 'skip tiles already written by an earlier run' })
        .option('shard', { type: 'string', describe: 'render share i of n (0 <= i < n) of the tile list' })
        .option('concurrency', { type: 'number', describe: 'worker threads (default: one per core)' })
        .option('progress', {
          choices: ['auto', 'bar', 'plain', 'none'] as const,
          default: 'auto' as const,
          describe: 'progress on stderr: a bar on a TTY, plain lines otherwise',
        })
        .option('format', {
          choices: ['png', 'webp', 'jpeg', 'jpg'] as const,
          default: 'png' as const,
          describe: 'tile format: png (exact), webp or jpeg (lossy, --quality; JPEG has no alpha: flattened onto white)',
        })
        .option('quality', quality),
    (a) => run(async () => (await import('./tiles.js')).tilesCommand({ ...a, backend: a.backend as BackendChoice })),
  )
  .command(
    'merge <inputs..>',
    'join .pmtiles archives (e.g. the shards of one export) into one',
    (y) =>
      y
        .positional('inputs', { type: 'string', array: true, describe: 'input archives' })
        .option('out', { type: 'string', demandOption: true, describe: 'output .pmtiles' }),
    (a) =>
      run(async () => {
        const { mergeArchives } = await import('../node/pmtiles/index.js');
        const h = await mergeArchives(a.inputs as string[], a.out);
        return `${a.out} (${h.numAddressedTiles} tiles, zoom ${h.minZoom}..${h.maxZoom})`;
      }),
  )
  .command(
    'convert',
    'write the graph a MapLibre GL style converts to, as a tilegraph style to edit',
    (y) =>
      y
        .option('style', { type: 'string', demandOption: true, describe: 'a MapLibre GL v8 style (JSON)' })
        .option('out', { type: 'string', demandOption: true, describe: 'the tilegraph style to write (JSON)' }),
    (a) => run(async () => (await import('./convert.js')).convertCommand({ style: a.style, out: a.out })),
  )
  .command(
    'check <dir>',
    'render golden cases (style.json, case.json, expected.png) and compare them; exit 6 on a difference',
    (y) =>
      y
        .positional('dir', { type: 'string', demandOption: true, describe: 'a folder of case folders, or one case folder' })
        .option('backend', { type: 'string', default: 'cpu', describe: 'cpu, gpu or cpu,gpu' })
        .option('update', { type: 'boolean', default: false, describe: 'write expected.png for cases that differ or lack one' })
        .option('case', { type: 'string', array: true, describe: 'only cases whose folder name contains this (repeatable)' })
        .option('allow-outside', {
          type: 'boolean',
          default: true,
          describe: "let sources read files outside each case's folder (cases share fixtures); --no-allow-outside refuses it",
        }),
    (a) =>
      run(async () => {
        const { runCheck, EXIT_DIFFERENCE } = await import('./check.js');
        const report = await runCheck({ dir: a.dir as string, backend: a.backend, update: a.update, case: a.case, allowOutside: a.allowOutside }, (l) =>
          process.stderr.write(l + '\n'),
        );
        if (report.failed) process.exitCode = EXIT_DIFFERENCE;
        return report.text;
      }),
  )
  .command(
    'serve',
    'serve PNG tiles over HTTP',
    (y) =>
      y
        .option('style', {
          type: 'string',
          array: true,
          demandOption: true,
          describe: 'style document (JSON); repeat it, or name a directory of <name>/style.json, to serve a gallery under /styles/{id}/',
        })
        .option('port', { type: 'number', default: Number(process.env.PORT ?? 8080), describe: 'port (env PORT); 0 picks a free one' })
        .option('host', {
          type: 'string',
          default: process.env.HOST ?? '127.0.0.1',
          describe: 'interface to listen on (env HOST); 0.0.0.0 for every interface',
        })
        .option('watch', { type: 'boolean', default: false, describe: 'reload the style when its file changes' })
        .option('workers', { type: 'number', describe: 'render worker threads (default: one per core; 0 renders on the main thread)' })
        .option('backend', { choices: BACKEND_CHOICES, default: defaultBackend, describe: 'render backend (env TILEGRAPH_BACKEND)' })
        .option('cache-mb', { type: 'number', default: 128, describe: 'memory for cached tiles, in MiB' })
        .option('source-cache-mb', {
          type: 'number',
          default: 128,
          describe: 'memory for decoded source tiles and sampled geometry, in MiB, per render worker and style version',
        })
        .option('worker-young-mb', {
          type: 'number',
          default: 64,
          describe: "each render worker's young generation (V8), in MiB: 16 saves ~40 MiB of RSS a worker for ~10-20% fewer text-heavy tiles a second",
        })
        .option('worker-heap-growth', {
          type: 'number',
          default: 200,
          describe:
            "how far V8 lets a heap grow past what survived its last full collection, in percent, for every thread (0: V8's own rule, which collected a text-heavy worker's caches every ~100 tiles)",
        })
        .option('queue', { type: 'number', default: 256, describe: 'renders that may wait before requests get 503' })
        .option('timeout', { type: 'number', default: 30, describe: 'seconds before a render answers 503' })
        .option('fetch-timeout', {
          type: 'number',
          describe: 'seconds each network read of a source may take, then 502 naming it (default: half of --timeout, at most 10)',
        })
        .option('headers-timeout', { type: 'number', default: 10, describe: "seconds a client may take to send a request's headers (then 408)" })
        .option('request-timeout', { type: 'number', default: 20, describe: 'seconds a client may take to send a whole request (then 408)' })
        .option('keep-alive-timeout', { type: 'number', default: 5, describe: 'seconds an idle keep-alive connection stays open' })
        .option('max-connections', { type: 'number', default: 1024, describe: 'open connections at once; more are closed as they connect' })
        .option('min-zoom', { type: 'string', default: '0', describe: 'lowest zoom served' })
        .option('max-zoom', { type: 'string', default: '22', describe: 'highest zoom served' })
        .option('public-url', { type: 'string', describe: 'base URL written into the TileJSON (default: from the request)' })
        .option('allow-outside', { type: 'boolean', default: false, describe: "let sources read files outside the style's directory" }),
    (a) =>
      run(async () => {
        const minZoom = parseZoom(a.minZoom, 'min-zoom');
        const maxZoom = parseZoom(a.maxZoom, 'max-zoom');
        if (minZoom > maxZoom) throw new UsageError(`--min-zoom ${minZoom} is above --max-zoom ${maxZoom}`);
        for (const [flag, v] of [
          ['cache-mb', a.cacheMb],
          ['source-cache-mb', a.sourceCacheMb],
        ] as const) {
          if (!(Number.isFinite(v) && v >= 0 && v <= 1024 * 1024)) throw new UsageError(`--${flag} takes MiB from 0 to 1048576, not '${v}'`);
        }
        const { serve } = await import('../server/serve.js');
        const limits = {
          headersTimeoutMs: a.headersTimeout * 1000,
          requestTimeoutMs: a.requestTimeout * 1000,
          keepAliveTimeoutMs: a.keepAliveTimeout * 1000,
          maxConnections: a.maxConnections,
        };
        for (const [flag, v] of [
          ['headers-timeout', a.headersTimeout],
          ['request-timeout', a.requestTimeout],
          ['keep-alive-timeout', a.keepAliveTimeout],
        ] as const) {
          if (!(Number.isFinite(v) && v > 0 && v <= 2_000_000)) throw new UsageError(`--${flag} takes a positive number of seconds, not '${v}'`);
        }
        if (!(Number.isInteger(a.maxConnections) && a.maxConnections > 0))
          throw new UsageError(`--max-connections takes a positive integer, not '${a.maxConnections}'`);
        for (const [flag, v] of [
          ['timeout', a.timeout],
          ['fetch-timeout', a.fetchTimeout],
        ] as const) {
          if (v !== undefined && !(Number.isFinite(v) && v > 0)) throw new UsageError(`--${flag} '${v}' is not a positive number of seconds`);
        }
        if (!(Number.isInteger(a.workerYoungMb) && a.workerYoungMb >= 1 && a.workerYoungMb <= 1024))
          throw new UsageError(`--worker-young-mb takes an integer number of MiB from 1 to 1024, not '${a.workerYoungMb}'`);
        if (!(Number.isInteger(a.workerHeapGrowth) && a.workerHeapGrowth >= 0 && a.workerHeapGrowth <= 400))
          throw new UsageError(`--worker-heap-growth takes an integer percent from 0 to 400, not '${a.workerHeapGrowth}'`);
        if (a.requestTimeout < a.headersTimeout) throw new UsageError(`--request-timeout ${a.requestTimeout} is below --headers-timeout ${a.headersTimeout}`);
        const { TilegraphError } = await import('../../index.js');
        const s = await serve({
          style: a.style.length === 1 ? a.style[0]! : a.style,
          port: a.port,
          host: a.host,
          watch: a.watch,
          workers: a.workers,
          backend: a.backend as BackendChoice,
          cacheBytes: a.cacheMb * 1024 * 1024,
          sourceCacheBytes: a.sourceCacheMb * 1024 * 1024,
          workerYoungMb: a.workerYoungMb,
          workerHeapGrowth: a.workerHeapGrowth,
          maxQueue: a.queue,
          timeoutMs: a.timeout * 1000,
          fetchTimeoutMs: a.fetchTimeout !== undefined ? a.fetchTimeout * 1000 : undefined,
          minZoom,
          maxZoom,
          publicUrl: a.publicUrl,
          allowOutside: a.allowOutside,
          ...limits,
        }).catch((e) => {
          if (e instanceof TilegraphError || e instanceof UsageError) throw e;
          if ((e as NodeJS.ErrnoException).syscall === 'listen') throw new UsageError(`cannot listen on ${a.host}:${a.port}: ${(e as Error).message}`);
          throw new StyleFileError(`cannot read style '${a.style}': ${(e as Error).message}`);
        });
        const name = s.service.style.renderer.doc.name;
        const many = 'services' in s ? (s.services as Map<string, unknown>) : undefined;
        process.stdout.write(
          many
            ? `tilegraph: serving ${many.size} styles (${[...many.keys()].join(', ')}) at ${s.url}\n`
            : `tilegraph: serving ${name ? `'${name}' ` : ''}(version ${s.service.version}) at ${s.url}\n`,
        );
        const stop = (sig: string) => {
          process.stderr.write(`tilegraph: ${sig}: finishing requests in flight, then stopping\n`);
          void s.close().then(() => process.exit(EXIT.ok));
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      }),
  )
  .demandCommand(1, 'name a command: tile, bbox, tiles, merge, convert, check or serve')
  .strict()
  .help()
  .fail((msg, err) => {
    // A mistyped command ('tiel'): name it and the nearest command, not yargs' "Unknown arguments".
    const first = hideBin(process.argv)[0];
    if (!err && first && !first.startsWith('-') && !COMMANDS.includes(first)) {
      const guess = nearest(first, COMMANDS, 2);
      msg = `unknown command '${first}'${guess ? `; did you mean '${guess}'?` : `; the commands are ${COMMANDS.join(', ')}`}`;
    }
    process.stderr.write(oneLine(err ?? new UsageError(`${msg ?? 'bad usage'} (see tilegraph --help)`)) + '\n');
    process.exit(err ? exitCodeOf(err) : EXIT.usage);
  });

await cli.parseAsync();
