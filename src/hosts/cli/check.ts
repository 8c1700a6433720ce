// `tilegraph check <dir>`: golden comparisons for style authors. Every case folder
// (style.json, case.json, expected.png) is rendered on the chosen backends, encoded by the PNG
// encoder we ship, decoded by libvips (sharp), and compared with its expected image (decoded by
// libvips too): what a user receives, not the raster inside the process. A failing case gets
// actual.png and diff.png beside it (docs/cli.md).
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { tileWindow, toRGBA8, type Backend, type Raster, type Renderer, type Window } from '../../index.js';
import { openStyle } from '../node/index.js';
import { decodePngRGBA, encodePng } from '../node/png.js';
import { selectBackend, type SelectedBackend } from '../node/select-backend.js';
import { parseTile } from './args.js';
import { oneLine, UsageError } from './exit.js';
import { writeOutput } from './render.js';

/** Exit code of a check that found a difference (or a case that could not render). */
export const EXIT_DIFFERENCE = 6;

/** Per-channel tolerance on premultiplied 8-bit values, and the share of pixels allowed past it. */
export interface Tolerance {
  /** Max per-channel difference in 1/255 units (default 2). */
  channel?: number;
  /** Fraction of pixels allowed to exceed it (default 0.001). */
  fraction?: number;
}

/** case.json. */
export interface CaseSpec {
  description?: string;
  /** `z/x/y`; or `window`. */
  tile?: string;
  /** A pixel window at a zoom: {z, x0, y0, width, height} in world pixels. */
  window?: Omit<Window, 'tileSize'>;
  tileSize?: number;
  /** Pixel ratio (1..4, default 1): a `@2x` case doubles the sizes in pixels (docs/format.md). */
  pixelRatio?: number;
  /** Param overrides, as strings (the CLI's --param values). */
  params?: Record<string, string>;
  tolerance?: Tolerance;
  /** The style, relative to the case folder (default `style.json`): a case of a style kept elsewhere in the repository. */
  style?: string;
  /** Backends this case runs on (default: every chosen one). */
  backends?: ('cpu' | 'gpu')[];
}

export type CaseStatus = 'pass' | 'fail' | 'missing' | 'error' | 'updated';

/**
 * The PNG a user receives (our encoder) decoded by libvips, and the pixels it must hold (the
 * render through toRGBA8): `lost` counts the pixels where they differ. The encoder is lossless,
 * so any is a failure, however small the tolerance would have judged it.
 */
async function encodeAndDecode(
  raster: Raster,
  encode: (r: Raster) => Promise<Uint8Array>,
): Promise<{ png: Uint8Array; decoded: Uint8Array; lost: number; firstLost?: string }> {
  const png = await encode(raster);
  const want = toRGBA8(raster);
  let decoded: Uint8Array;
  try {
    const d = await decodePngRGBA(png);
    if (d.width !== raster.width || d.height !== raster.height) throw new Error(`it is ${d.width}x${d.height}`);
    decoded = d.data;
  } catch (e) {
    return {
      png,
      decoded: new Uint8Array(want.length),
      lost: raster.width * raster.height,
      firstLost: `libvips cannot read it (${(e as Error).message.trim()})`,
    };
  }
  let lost = 0;
  let firstLost: string | undefined;
  for (let i = 0; i < want.length; i += 4) {
    if (decoded[i] === want[i] && decoded[i + 1] === want[i + 1] && decoded[i + 2] === want[i + 2] && decoded[i + 3] === want[i + 3]) continue;
    if (lost++ === 0) {
      const p = i / 4;
      firstLost = `decoded by libvips, (${p % raster.width}, ${Math.floor(p / raster.width)}) is ${[...decoded.subarray(i, i + 4)].join(',')}, rendered ${[...want.subarray(i, i + 4)].join(',')}`;
    }
  }
  return { png, decoded, lost, firstLost };
}

/**
 * expected.png as libvips writes the render's pixels (toRGBA8), not as our encoder does: an
 * accepted image holds the pixels themselves, so a later encoder bug shows as a difference.
 */
async function expectedPngOf(raster: Raster): Promise<Buffer> {
  const px = toRGBA8(raster);
  return sharp(Buffer.from(px.buffer, px.byteOffset, px.byteLength), { raw: { width: raster.width, height: raster.height, channels: 4 } })
    .png({ compressionLevel: 9, palette: false })
    .toBuffer();
}

export interface CaseResult {
  name: string;
  backend: 'cpu' | 'gpu';
  status: CaseStatus;
  /** Pixels past the channel tolerance, and their share. */
  badPixels?: number;
  badFraction?: number;
  /** Largest premultiplied channel difference, in 1/255 units. */
  maxDiff?: number;
  ms: number;
  message?: string;
}

export interface Comparison {
  ok: boolean;
  badPixels: number;
  badFraction: number;
  maxDiff: number;
  /** RGBA: the expected image faded to grey, differences within tolerance orange, beyond it red. */
  diff: Uint8Array;
}

/**
 * Compare two straight-alpha RGBA images on premultiplied values (colour under zero alpha does
 * not count). Pass when at most `fraction` of the pixels differ by more than `channel`/255.
 */
export function compareImages(
  actual: Uint8Array | Uint8ClampedArray,
  expected: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  tol: Tolerance = {},
): Comparison {
  const channel = tol.channel ?? 2;
  const fraction = tol.fraction ?? 0.001;
  if (actual.length !== expected.length || actual.length !== width * height * 4)
    throw new Error(`the images differ in size: ${actual.length} vs ${expected.length} bytes`);
  const diff = new Uint8Array(width * height * 4);
  let bad = 0;
  let maxDiff = 0;
  for (let i = 0; i < actual.length; i += 4) {
    const aa = actual[i + 3]! / 255;
    const ea = expected[i + 3]! / 255;
    let m = Math.abs(actual[i + 3]! - expected[i + 3]!);
    for (let c = 0; c < 3; c++) m = Math.max(m, Math.abs(actual[i + c]! * aa - expected[i + c]! * ea));
    if (m > maxDiff) maxDiff = m;
    if (m > channel + 1e-9) {
      bad++;
      diff.set([255, 0, 0, 255], i);
    } else if (m > 0.5) {
      diff.set([255, 165, 0, 255], i);
    } else {
      // Expected luminance over white, faded, so the differences stand out.
      const lum = (0.299 * expected[i]! + 0.587 * expected[i + 1]! + 0.114 * expected[i + 2]!) * ea + 255 * (1 - ea);
      const g = Math.round(255 - (255 - lum) * 0.25);
      diff.set([g, g, g, 255], i);
    }
  }
  const badFraction = bad / (width * height);
  return { ok: badFraction <= fraction, badPixels: bad, badFraction, maxDiff, diff };
}

/** The case's window: `tile` (default 0/0/0) or `window`, at `tileSize` (default 256) and `pixelRatio`. */
export function caseWindow(spec: CaseSpec): Window {
  const tileSize = spec.tileSize ?? 256;
  const ratio = spec.pixelRatio === undefined ? {} : { pixelRatio: spec.pixelRatio };
  if (spec.window) return { ...spec.window, tileSize, ...ratio };
  return { ...tileWindow(parseTile(spec.tile ?? '0/0/0'), tileSize), ...ratio };
}

/** The case folders under `dir` (sorted), or `dir` itself when it is one. */
export function findCases(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`'${dir}' is not a directory`);
  if (existsSync(path.join(dir, 'case.json'))) return [path.resolve(dir)];
  const cases = readdirSync(dir)
    .filter((d) => existsSync(path.join(dir, d, 'case.json')))
    .sort()
    .map((d) => path.resolve(dir, d));
  if (cases.length === 0) throw new UsageError(`'${dir}' holds no case folders (a folder with case.json, and style.json or case.json's style)`);
  return cases;
}

/** The style file of a case: case.json's `style` (relative to the case folder), else its style.json. */
export function caseStyle(dir: string, spec: CaseSpec): string {
  return path.resolve(dir, typeof spec.style === 'string' && spec.style ? spec.style : 'style.json');
}

export function readCase(dir: string): CaseSpec {
  return JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseSpec;
}

const suffixOf = (backend: 'cpu' | 'gpu') => (backend === 'cpu' ? '' : `-${backend}`);

export interface CheckCaseOptions {
  backend: Backend;
  /** Write expected.png from this render when it is missing or differs. */
  update?: boolean;
  allowOutside?: boolean;
  /** A renderer already opened for this case (several backends share one). */
  renderer?: Renderer;
  /** The encoder whose output is checked (default: the PNG encoder the CLI and the server ship; tests swap in a faulty one). */
  encode?: (r: Raster) => Promise<Uint8Array>;
  signal?: AbortSignal;
}

/**
 * Render one case on one backend, encode it as the CLI and the server do, decode that with
 * libvips and compare it with expected.png (libvips too). A failing case gets actual[-gpu].png
 * (the encoded render) and diff[-gpu].png beside it; a passing one loses stale ones.
 */
export async function checkCase(dir: string, spec: CaseSpec, o: CheckCaseOptions): Promise<CaseResult> {
  const name = path.basename(dir);
  const bname = o.backend.name;
  const started = performance.now();
  const result = (status: CaseStatus, extra: Partial<CaseResult> = {}): CaseResult => ({
    name,
    backend: bname,
    status,
    ms: performance.now() - started,
    ...extra,
  });
  const suffix = suffixOf(bname);
  const actualPath = path.join(dir, `actual${suffix}.png`);
  const diffPath = path.join(dir, `diff${suffix}.png`);
  const expectedPath = path.join(dir, 'expected.png');
  let raster: Raster;
  try {
    const renderer = o.renderer ?? (await openStyle(caseStyle(dir, spec), { allowOutside: o.allowOutside }));
    const params = renderer.params(spec.params ?? {});
    raster = (await renderer.renderWindow(caseWindow(spec), params, { backend: o.backend, signal: o.signal })).raster;
  } catch (e) {
    return result('error', { message: oneLine(e).replace(/^tilegraph: /, '') });
  }
  const { png, decoded: actual, lost, firstLost } = await encodeAndDecode(raster, o.encode ?? encodePng);
  const writeExpected = async () => {
    await writeOutput(expectedPath, await expectedPngOf(raster));
    for (const f of [actualPath, diffPath]) rmSync(f, { force: true });
  };
  if (lost > 0) {
    // Never accepted by --update: the image would not be what a user receives.
    await writeOutput(actualPath, png);
    const n = raster.width * raster.height;
    return result('fail', { badPixels: lost, badFraction: lost / n, message: `the PNG encoder lost ${lost} pixels: ${firstLost}` });
  }
  if (!existsSync(expectedPath)) {
    if (o.update) {
      await writeExpected();
      return result('updated', { message: 'expected.png written' });
    }
    await writeOutput(actualPath, png);
    return result('missing', { message: `no expected.png; actual${suffix}.png written (run with --update to accept it)` });
  }
  const exp = await decodePngRGBA(readFileSync(expectedPath));
  if (exp.width !== raster.width || exp.height !== raster.height) {
    if (o.update) {
      await writeExpected();
      return result('updated', { message: `expected.png was ${exp.width}x${exp.height}, now ${raster.width}x${raster.height}` });
    }
    await writeOutput(actualPath, png);
    return result('fail', { message: `expected.png is ${exp.width}x${exp.height} but the render is ${raster.width}x${raster.height}` });
  }
  const cmp = compareImages(actual, exp.data, raster.width, raster.height, spec.tolerance);
  const numbers = { badPixels: cmp.badPixels, badFraction: cmp.badFraction, maxDiff: cmp.maxDiff };
  if (cmp.ok) {
    for (const f of [actualPath, diffPath]) rmSync(f, { force: true });
    return result('pass', numbers);
  }
  if (o.update) {
    await writeExpected();
    return result('updated', { ...numbers, message: 'expected.png rewritten' });
  }
  await writeOutput(actualPath, png);
  await writeOutput(
    diffPath,
    await sharp(Buffer.from(cmp.diff), { raw: { width: raster.width, height: raster.height, channels: 4 } })
      .png()
      .toBuffer(),
  );
  const tol = spec.tolerance ?? {};
  return result('fail', {
    ...numbers,
    message: `${cmp.badPixels} pixels (${(cmp.badFraction * 100).toFixed(3)}%) differ by more than ${tol.channel ?? 2}/255, allowed ${((tol.fraction ?? 0.001) * 100).toFixed(3)}%; see ${path.relative(process.cwd(), diffPath)}`,
  });
}

export interface CheckArgs {
  dir: string;
  /** `cpu`, `gpu`, or a comma list (`cpu,gpu`). */
  backend?: string;
  update?: boolean;
  /** Sources may read files outside each case's folder (default true: cases share fixtures). */
  allowOutside?: boolean;
  /** Only cases whose folder name contains one of these. */
  case?: string[];
}

export interface CheckReport {
  results: CaseResult[];
  /** The summary table and the last line, for stdout. */
  text: string;
  failed: number;
}

export function parseBackends(s: string | undefined): ('cpu' | 'gpu')[] {
  const list = (s ?? 'cpu')
    .split(',')
    .map((b) => b.trim().toLowerCase())
    .filter(Boolean);
  const out: ('cpu' | 'gpu')[] = [];
  for (const b of list) {
    if (b !== 'cpu' && b !== 'gpu') throw new UsageError(`--backend '${s}': name cpu, gpu or both (cpu,gpu)`);
    if (!out.includes(b)) out.push(b);
  }
  if (out.length === 0) throw new UsageError(`--backend '${s}' names no backend`);
  return out;
}

/** Run every case on every chosen backend; `--update` renders on the first backend only. */
export async function runCheck(a: CheckArgs, log: (line: string) => void = () => undefined): Promise<CheckReport> {
  // One folder per case, so data shared by several cases lies outside each case's folder: a
  // check renders the author's own cases locally, where the guard for served styles protects nothing.
  a = { ...a, allowOutside: a.allowOutside ?? true };
  let backends = parseBackends(a.backend);
  if (a.update) backends = backends.slice(0, 1);
  let dirs = findCases(a.dir);
  if (a.case?.length) dirs = dirs.filter((d) => a.case!.some((c) => path.basename(d).includes(c)));
  if (dirs.length === 0) throw new UsageError(`no case matches --case ${a.case!.join(', ')}`);
  const selected = new Map<'cpu' | 'gpu', SelectedBackend>();
  const results: CaseResult[] = [];
  try {
    for (const b of backends) selected.set(b, await selectBackend(b));
    for (const dir of dirs) {
      let spec: CaseSpec;
      try {
        spec = readCase(dir);
      } catch (e) {
        results.push({ name: path.basename(dir), backend: backends[0]!, status: 'error', ms: 0, message: `case.json: ${(e as Error).message}` });
        continue;
      }
      let renderer: Renderer | undefined;
      for (const b of backends) {
        if (spec.backends && !spec.backends.includes(b)) continue;
        renderer ??= await openStyle(caseStyle(dir, spec), { allowOutside: a.allowOutside }).catch(() => undefined);
        const r = await checkCase(dir, spec, { backend: selected.get(b)!.backend, update: a.update, allowOutside: a.allowOutside, renderer });
        results.push(r);
        log(`${r.status.padEnd(7)} ${r.name} [${r.backend}]${r.message ? ': ' + r.message : ''}`);
      }
    }
  } finally {
    for (const s of selected.values()) await s.close();
  }
  const failed = results.filter((r) => r.status === 'fail' || r.status === 'missing' || r.status === 'error').length;
  return { results, failed, text: summaryTable(results) };
}

/** One row per case and backend, then a count line. */
export function summaryTable(results: CaseResult[]): string {
  const rows = results.map((r) => [
    r.name,
    r.backend,
    r.status.toUpperCase(),
    r.badPixels === undefined ? '' : String(r.badPixels),
    r.badFraction === undefined ? '' : `${(r.badFraction * 100).toFixed(3)}%`,
    r.maxDiff === undefined ? '' : r.maxDiff.toFixed(1),
    r.ms.toFixed(0),
  ]);
  const head = ['case', 'backend', 'result', 'bad px', 'bad %', 'max diff', 'ms'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const count = (s: CaseStatus) => results.filter((r) => r.status === s).length;
  const parts = [`${count('pass')} passed`, `${count('fail')} failed`];
  if (count('missing')) parts.push(`${count('missing')} missing expected.png`);
  if (count('error')) parts.push(`${count('error')} could not render`);
  if (count('updated')) parts.push(`${count('updated')} updated`);
  const problems = results.filter((r) => r.status !== 'pass' && r.message).map((r) => `${r.name} [${r.backend}]: ${r.message}`);
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...problems,
    ...(problems.length ? [''] : []),
    `${parts.join(', ')} (${results.length} renders)`,
  ].join('\n');
}
