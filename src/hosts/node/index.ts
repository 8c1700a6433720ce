// The Node host: open a style file with a file/URL loader; PNG encoding.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Renderer, type RendererOptions } from '../../index.js';
import { NodeLoader } from './loader.js';
import './kernels.js'; // binds the native kernels (AVX-512) to the core where they load

export interface OpenStyleOptions extends RendererOptions {
  allowOutside?: boolean;
}

/** Read, validate and build a style file; sources resolve relative to its directory. */
export async function openStyle(file: string, options: OpenStyleOptions = {}): Promise<Renderer> {
  const text = await readFile(file, 'utf8');
  const loader = options.loader ?? new NodeLoader({ baseDir: path.dirname(path.resolve(file)), allowOutside: options.allowOutside });
  return Renderer.create(text, { ...options, loader });
}

export { NodeLoader } from './loader.js';
export { encodePng, decodePng, decodePngRGBA } from './png.js';
export { decodeImage } from './image.js';
export { createBackend, closeGpu, type BackendChoice } from './gpu.js';
export { kernelsInfo, setNativeKernels, type KernelsInfo } from './kernels.js';
