// A style file read once: its text (so worker threads build exactly the same version) and its Renderer.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Renderer } from '../../index.js';
import { NodeLoader } from './index.js';

export interface LoadedStyle {
  file: string;
  text: string;
  /** Directory that the style's relative source paths resolve against. */
  baseDir: string;
  allowOutside: boolean;
  renderer: Renderer;
}

/** Build a Renderer from style text with the Node loader (what `openStyle` does for a file). */
export function rendererFromText(text: string, baseDir: string, allowOutside = false): Renderer {
  return Renderer.create(text, { loader: new NodeLoader({ baseDir, allowOutside }) });
}

/** Read, validate and build a style file. Throws StyleError / BuildError, or the fs error when unreadable. */
export async function loadStyleFile(file: string, options: { allowOutside?: boolean } = {}): Promise<LoadedStyle> {
  const abs = path.resolve(file);
  const text = await readFile(abs, 'utf8');
  const baseDir = path.dirname(abs);
  const allowOutside = options.allowOutside ?? false;
  return { file: abs, text, baseDir, allowOutside, renderer: rendererFromText(text, baseDir, allowOutside) };
}
