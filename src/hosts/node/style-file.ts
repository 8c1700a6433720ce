// A style file read once: its text (so worker threads build exactly the same version) and its Renderer.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { NodeCache, Renderer } from '../../index.js';
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
}

/** Build a Renderer from style text with the Node loader (what `openStyle` does for a file). */
export function rendererFromText(text: string, baseDir: string, allowOutside = false, fetchTimeoutMs?: number, nodeCacheBytes?: number): Renderer {
  const nodeCache = nodeCacheBytes ? new NodeCache(nodeCacheBytes) : undefined;
  return Renderer.create(text, { loader: new NodeLoader({ baseDir, allowOutside, fetchTimeoutMs }), nodeCache });
}

/** Read, validate and build a style file. Throws StyleError / BuildError, or the fs error when unreadable. */
export async function loadStyleFile(
  file: string,
  options: { allowOutside?: boolean; fetchTimeoutMs?: number; nodeCacheBytes?: number } = {},
): Promise<LoadedStyle> {
  const abs = path.resolve(file);
  const text = await readFile(abs, 'utf8');
  const baseDir = path.dirname(abs);
  const allowOutside = options.allowOutside ?? false;
  const fetchTimeoutMs = options.fetchTimeoutMs;
  const nodeCacheBytes = options.nodeCacheBytes;
  return {
    file: abs,
    text,
    baseDir,
    allowOutside,
    fetchTimeoutMs,
    nodeCacheBytes,
    renderer: rendererFromText(text, baseDir, allowOutside, fetchTimeoutMs, nodeCacheBytes),
  };
}
