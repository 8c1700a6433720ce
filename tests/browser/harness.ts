// Browser tests: the tile server on an ephemeral port, the browser bundle freshly built, and the
// system's chromium (never a downloaded one) driven headless by playwright-core.
import { execFileSync } from 'node:child_process';
import { get } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { serve, type RunningServer } from '../../src/hosts/server/index.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const EXAMPLE_STYLE = path.join(ROOT, 'examples/world/style.json');
export const ARTIFACTS = path.join(ROOT, 'tests/artifacts/browser');

/**
 * Chromium's switches for every browser test. `--disable-gpu-watchdog`: a CI machine running many
 * browsers at once can starve the GPU process (SwiftShader) long enough for the watchdog to kill
 * it, and the map's WebGL context goes with it; that is the machine, not the page under test.
 */
export const BASE_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-gpu-watchdog',
];
const CHROMIUM_ARGS = [...BASE_CHROMIUM_ARGS, '--enable-unsafe-webgpu'];

/**
 * Wait for the preview page's start (`tilegraphPreview.ready`), at most `timeout` ms. A start that
 * does not finish fails with where it stopped (`stage`), the status line, the tile errors and the
 * page's console errors, instead of a bare test timeout.
 */
export async function pageReady(page: Page, consoleErrors: string[] = [], timeout = 90_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeout);
  });
  const started = page
    .evaluate(() => (window as unknown as { tilegraphPreview: { ready: Promise<void> } }).tilegraphPreview.ready)
    .then(() => 'ready' as const);
  try {
    if ((await Promise.race([started, late])) === 'ready') return;
  } finally {
    clearTimeout(timer);
  }
  const seen = await page
    .evaluate(() => {
      const t = (window as unknown as { tilegraphPreview?: { stage?: string; errors?: string[] } }).tilegraphPreview;
      return { stage: t?.stage, status: document.getElementById('status')?.textContent, errors: t?.errors };
    })
    .catch((e: Error) => ({ unreadable: e.message }));
  throw new Error(`the preview page did not start in ${timeout} ms (${page.url()}): ${JSON.stringify({ ...seen, consoleErrors })}`);
}

/** Build dist/browser from the current sources (esbuild, under a second). */
/**
 * Builds dist/browser once per jest run: the global setup (tests/helpers/generate.mjs) names the run
 * in TILEGRAPH_TEST_RUN, and the first test file to open a browser builds and stamps it (a second
 * file starting meanwhile builds too: the build renames its files into place). A file run outside
 * jest's setup builds every time.
 */
export function buildBundle(): void {
  const run = process.env.TILEGRAPH_TEST_RUN;
  const stamp = path.join(ROOT, 'dist/.browser-bundle-test-run');
  if (run && existsSync(stamp) && readFileSync(stamp, 'utf8') === run) return;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-browser.mjs')], { stdio: 'pipe' });
  if (run) writeFileSync(stamp, run);
}

export interface Session {
  server: RunningServer;
  /** The server's root URL, with a trailing slash. */
  base: string;
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen on the page so far. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/** One server and one chromium (fresh profile, small viewport) for a whole test file. */
export async function openSession(style = EXAMPLE_STYLE): Promise<Session> {
  buildBundle();
  const server = await serve({ style, port: 0, host: '127.0.0.1', workers: 0, backend: 'cpu', log: () => undefined });
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 900, height: 520 },
    });
  } catch (e) {
    await server.close(0);
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`uncaught: ${e.message}`));
  return {
    server,
    base: server.url,
    context,
    page,
    consoleErrors,
    async close() {
      await context.close().catch(() => undefined);
      await server.close(0);
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export function saveArtifact(name: string, png: Buffer | Uint8Array): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, name);
  writeFileSync(file, png);
  return file;
}

/**
 * The page URL's query value of a param, once the page has written it: the preview writes its URL
 * at most every 100 ms (browsers throttle history updates), so a value typed a moment ago may not
 * be there yet. Waits up to 5 s for `expected`, then returns what the URL holds, so a mismatch
 * fails the caller's assertion with the real value.
 */
export async function urlParam(page: Page, name: string, expected: string | null): Promise<string | null> {
  await page
    .waitForFunction(([n, v]) => new URLSearchParams(location.search).get(n!) === v, [name, expected] as const, { timeout: 5000 })
    .catch(() => undefined);
  return new URL(page.url()).searchParams.get(name);
}

/** The page URL's whole query (`?a=1&b=2`, or '' for none), once it is `expected` or after 5 s. */
export async function urlSearch(page: Page, expected: string): Promise<string> {
  await page.waitForFunction((v) => location.search === v, expected, { timeout: 5000 }).catch(() => undefined);
  return new URL(page.url()).search;
}

export function decodePng(bytes: Buffer | Uint8Array): { width: number; height: number; data: Uint8Array } {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
}

export function encodePng(width: number, height: number, data: Uint8Array | Uint8ClampedArray): Buffer {
  const png = new PNG({ width, height });
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).copy(png.data);
  return PNG.sync.write(png);
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json<T = unknown>(): T;
}

/**
 * GET on a fresh connection. The server renders in this process, so a busy event loop can miss
 * a keep-alive socket's close and a pooled fetch() would then fail with ECONNRESET.
 */
export function httpGet(url: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body.toString('utf8')) as T });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}
