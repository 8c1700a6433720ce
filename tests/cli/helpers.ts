// Running the compiled CLI as a child process, and reading its PNG output.
import { execFile } from 'node:child_process';
import { CpuBackend, type Raster } from '../../src/index.js';
import { decodePngRGBA } from '../../src/hosts/node/png.js';
import { loadStyleFile } from '../../src/hosts/node/style-file.js';
import { CLI, ROOT } from '../server/fixtures.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { ...process.env, TILEGRAPH_BACKEND: 'cpu', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface Image {
  data: Uint8Array;
  width: number;
  height: number;
}

export const readPng = (bytes: Uint8Array): Promise<Image> => decodePngRGBA(bytes);

export function px(img: Image, x: number, y: number): number[] {
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 4)];
}

/** Tile z/x/y of a style file rendered in this process on the CPU (the raster a CLI output must hold). */
export async function renderTileHere(style: string, [z, x, y]: readonly number[], params: Record<string, string> = {}, tileSize = 256): Promise<Raster> {
  const s = await loadStyleFile(style);
  return s.renderer.renderTile({ z: z!, x: x!, y: y! }, s.renderer.params(params), { tileSize, backend: new CpuBackend() });
}
