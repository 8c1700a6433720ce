// CLI `tile` and `bbox`: one window rendered in this process and written as one PNG.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { RenderError, tileWindow, TilegraphError, type Window } from '../../index.js';
import { defaultFetchTimeoutMs } from '../node/loader.js';
import { encodePng } from '../node/png.js';
import { DEFAULT_QUALITY, encodeTile, imageFormatOf, type TileFormat } from '../node/webp.js';
import { selectBackend, type BackendChoice } from '../node/select-backend.js';
import { conversionReport, loadStyleFile, type LoadedStyle } from '../node/style-file.js';
import { atPixelRatio, bboxWindow, parseBbox, parseParams, parsePixelRatio, parseTile, parseZoom } from './args.js';
import { OutputError, StyleFileError, UsageError } from './exit.js';

export interface CommonArgs {
  style: string;
  /** 1..100 for the lossy formats (JPEG, WebP); default 90. */
  quality?: number;
  param?: string[];
  backend: BackendChoice;
  allowOutside?: boolean;
  /** Seconds one render may take; default 30. */
  timeout?: number;
  /** Seconds each network read of a source may take; default half of `timeout`, at most 10. */
  fetchTimeout?: number;
}

/** Seconds one render may take when --timeout is not given. */
export const DEFAULT_RENDER_TIMEOUT_S = 30;

/** --timeout in milliseconds (a usage error unless a positive number). */
export function timeoutMs(a: CommonArgs): number {
  const t = a.timeout ?? DEFAULT_RENDER_TIMEOUT_S;
  if (!Number.isFinite(t) || t <= 0) throw new UsageError(`--timeout '${a.timeout}' is not a positive number of seconds`);
  return t * 1000;
}

/** --fetch-timeout in milliseconds; by default shorter than the render's, so a silent source is named (issue 23). */
export function fetchTimeoutMs(a: CommonArgs): number {
  if (a.fetchTimeout === undefined) return defaultFetchTimeoutMs(timeoutMs(a));
  const t = a.fetchTimeout;
  if (!Number.isFinite(t) || t <= 0) throw new UsageError(`--fetch-timeout '${a.fetchTimeout}' is not a positive number of seconds`);
  return t * 1000;
}

/**
 * A signal that aborts after --timeout, and what to say when it did: the render time budget of
 * the CLI (the server has its own queue timeout).
 */
export function renderDeadline(ms: number): { signal: AbortSignal; explain(e: unknown): unknown } {
  const signal = AbortSignal.timeout(ms);
  return {
    signal,
    explain: (e) => (signal.aborted ? new RenderError(`the render took longer than --timeout ${ms / 1000} s and was stopped`) : e),
  };
}

/** Load the style, turning an unreadable file into a style failure (exit 2). */
export async function loadStyleForCli(file: string, allowOutside?: boolean, fetchTimeoutMs?: number): Promise<LoadedStyle> {
  try {
    const style = await loadStyleFile(file, { allowOutside, fetchTimeoutMs });
    for (const line of conversionReport(style.renderer, `'${file}'`)) process.stderr.write(line + '\n');
    return style;
  } catch (e) {
    if (e instanceof TilegraphError) throw e;
    throw new StyleFileError(`cannot read style '${file}': ${(e as Error).message}`);
  }
}

export async function writeOutput(file: string, bytes: Uint8Array): Promise<void> {
  try {
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await writeFile(file, bytes);
  } catch (e) {
    throw new OutputError(`cannot write '${file}': ${(e as Error).message}`);
  }
}

/** --quality: an integer 1..100 (default 90). */
export function parseQuality(q: number | undefined): number {
  if (q === undefined) return DEFAULT_QUALITY;
  if (!Number.isInteger(q) || q < 1 || q > 100) throw new UsageError(`--quality '${q}' is not an integer from 1 to 100`);
  return q;
}

/** The format `--out` names by its extension: .png (or none), .jpg/.jpeg, .webp; any other is refused before rendering. */
export function outputFormat(out: string): TileFormat {
  const f = imageFormatOf(out);
  if (f) return f;
  if (!/\.[^./\\]+$/.test(out)) return 'png';
  throw new UsageError(`--out '${out}': the extension names no format tilegraph writes here; use .png, .jpg (or .jpeg) or .webp`);
}

/** Render one window to an image file (its format from the extension) with the chosen backend. Returns the window rendered. */
async function renderToFile(args: CommonArgs, out: string, windowOf: (style: LoadedStyle) => Window): Promise<Window> {
  const format = outputFormat(out);
  const quality = parseQuality(args.quality);
  const ms = timeoutMs(args);
  const style = await loadStyleForCli(args.style, args.allowOutside, fetchTimeoutMs(args));
  const params = style.renderer.params(parseParams(args.param));
  const window = windowOf(style);
  const selected = await selectBackend(args.backend);
  try {
    const deadline = renderDeadline(ms);
    const { raster } = await style.renderer.renderWindow(window, params, { backend: selected.backend, signal: deadline.signal }).catch((e: unknown) => {
      throw deadline.explain(e);
    });
    await writeOutput(out, await encodeTile(await encodePng(raster), format, quality));
  } finally {
    await selected.close();
  }
  return window;
}

/** ", JPEG at quality 90" for a lossy output (PNG is exact and says nothing). */
const lossy = (a: { out: string; quality?: number }) => {
  const f = outputFormat(a.out);
  return f === 'png' ? '' : `, ${f === 'jpeg' ? 'JPEG' : 'WebP'} at quality ${parseQuality(a.quality)}`;
};

/** What the commands writing one image (tile, bbox) take besides the common arguments. */
interface ImageArgs extends CommonArgs {
  out: string;
  tileSize: number;
  /** 1..4 (default 1): the same area in ratio times the pixels, every size in pixels scaled with it. */
  pixelRatio?: number | string;
}

export interface TileArgs extends ImageArgs {
  tile: string;
}

export async function tileCommand(a: TileArgs): Promise<string> {
  const t = parseTile(a.tile);
  const r = parsePixelRatio(a.pixelRatio);
  const size = a.tileSize * r;
  await renderToFile(a, a.out, () => atPixelRatio(tileWindow(t, size), r));
  return `${a.out} (tile ${t.z}/${t.x}/${t.y}, ${size}x${size}${r > 1 ? ` at pixel ratio ${r}` : ''}${lossy(a)})`;
}

export interface BboxArgs extends ImageArgs {
  bbox: string;
  zoom: number | string;
  maxPixels: number;
}

export async function bboxCommand(a: BboxArgs): Promise<string> {
  const b = parseBbox(a.bbox);
  const z = parseZoom(a.zoom);
  const r = parsePixelRatio(a.pixelRatio);
  const w = atPixelRatio(bboxWindow(b, z, a.tileSize * r), r);
  if (w.width * w.height > a.maxPixels) {
    throw new UsageError(
      `--bbox at zoom ${z} is ${w.width}x${w.height} pixels, above --max-pixels ${a.maxPixels}; lower the zoom, use 'tiles', or raise --max-pixels`,
    );
  }
  await renderToFile(a, a.out, () => w);
  return `${a.out} (${w.width}x${w.height} px at zoom ${z}${r > 1 ? ` and pixel ratio ${r}` : ''}, world pixels x ${w.x0}..${w.x0 + w.width}, y ${w.y0}..${w.y0 + w.height}${lossy(a)})`;
}
