// A style file read once: its text (so worker threads build exactly the same version) and its Renderer.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatNote, NodeCache, Renderer, TileCache } from '../../index.js';
import { NodeLoader } from './index.js';

export interface LoadedStyle {
  file: string;
  text: string;
  /** Directory that the style's relative source paths resolve against. */
  baseDir: string;
  allowOutside: boolean;
  /** Milliseconds a network read of a source may take (the loader's; default 30 s). */
  fetchTimeoutMs?: number;
  renderer: Renderer;
  /**
   * Bytes of node results the renderer keeps across renders (opt-in; the server keeps none: cached
   * buffers leave the pool, which cost uncached throughput more than the cache saved).
   */
  nodeCacheBytes?: number;
  /**
   * Bytes of decoded source tiles and sampled geometry each built renderer keeps (its TileCache;
   * default 128 MiB), unless `tileCache` is given. A server's render worker shares one among all
   * the styles it holds (a gallery's, and previous versions after a reload).
   */
  sourceCacheBytes?: number;
  /**
   * The source cache shared with other styles of this thread (a server's; then `sourceCacheBytes`
   * is its size, for every style together). Never sent to a worker, which has its own.
   */
  tileCache?: TileCache;
}

/** How a style's Renderer is built from its text: what LoadedStyle and a worker's init carry. */
export type BuildOptions = Pick<LoadedStyle, 'baseDir' | 'allowOutside' | 'fetchTimeoutMs' | 'nodeCacheBytes' | 'sourceCacheBytes' | 'tileCache'>;

/** Build a Renderer from style text with the Node loader (what `openStyle` does for a file). */
export function rendererFromText(text: string, o: BuildOptions): Renderer {
  const nodeCache = o.nodeCacheBytes ? new NodeCache(o.nodeCacheBytes) : undefined;
  const tileCache = o.tileCache ?? (o.sourceCacheBytes !== undefined ? new TileCache({ maxBytes: o.sourceCacheBytes }) : undefined);
  const loader = new NodeLoader({ baseDir: o.baseDir, allowOutside: o.allowOutside, fetchTimeoutMs: o.fetchTimeoutMs });
  return Renderer.create(text, { loader, nodeCache, tileCache });
}

/** Read, validate and build a style file. Throws StyleError / BuildError, or the fs error when unreadable. */
export async function loadStyleFile(
  file: string,
  options: { allowOutside?: boolean; fetchTimeoutMs?: number; nodeCacheBytes?: number; sourceCacheBytes?: number; tileCache?: TileCache } = {},
): Promise<LoadedStyle> {
  const abs = path.resolve(file);
  const text = await readFile(abs, 'utf8');
  const o: BuildOptions = {
    baseDir: path.dirname(abs),
    allowOutside: options.allowOutside ?? false,
    fetchTimeoutMs: options.fetchTimeoutMs,
    nodeCacheBytes: options.nodeCacheBytes,
    sourceCacheBytes: options.sourceCacheBytes,
    tileCache: options.tileCache,
  };
  return { file: abs, text, ...o, renderer: rendererFromText(text, o) };
}

/**
 * What a MapLibre GL style's graph does not honour, as lines for a terminal or a log: none for a
 * style of ours, one summary line and one line per note for a converted one.
 */
export function conversionReport(renderer: Renderer, label = 'the style'): string[] {
  const notes = renderer.maplibreNotes;
  if (!notes) return [];
  if (!notes.length) return [`tilegraph: ${label} is a MapLibre GL style, converted to a graph; every layer and property is honoured`];
  return [
    `tilegraph: ${label} is a MapLibre GL style, converted to a graph; ${notes.length} thing${notes.length === 1 ? '' : 's'} not honoured:`,
    ...notes.map((n) => `  ${formatNote(n)}`),
  ];
}
