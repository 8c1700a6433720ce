/// <reference types="@webgpu/types" />
// The Node host's GPU binding: Dawn (the optional `webgpu` package) makes the GPUDevice that the
// core's GpuBackend renders on, and hosts choose a backend with `auto | gpu | cpu`.
//
// Dawn notes (webgpu 0.6.2): the object `create()` returns must stay referenced for the whole
// process (collecting it while a device lives crashes the process), so it is kept here; an
// adapter gives one device, so a replacement device comes from a new adapter.
import { mkdtempSync, existsSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CpuBackend } from '../../backends/cpu/backend.js';
import { TilegraphError } from '../../errors.js';
import { GpuBackend } from '../../backends/gpu/backend.js';
import type { Backend } from '../../backends/backend.js';

import { BACKEND_CHOICES, type BackendChoice } from '../protocol.js';

export { BACKEND_CHOICES, type BackendChoice };

/** Debian's chromium ships SwiftShader, a CPU Vulkan driver Dawn can run on. */
export const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

export interface AdapterSummary {
  description: string;
  vendor: string;
  architecture: string;
  /** A software adapter (SwiftShader): `auto` does not use it. */
  fallback: boolean;
  /** Every field of the adapter's GPUAdapterInfo that Dawn reports (device, driver description...), for logs and the bench. */
  details: Record<string, string | number | boolean>;
  /** The adapter's optional features (timestamp-query, shader-f16...). */
  features: string[];
}

interface DawnModule {
  create: ((flags: string[]) => GPU) & { tilegraphInstances?: GPU[] };
}

/**
 * The live Dawn instances (see the note above), kept for the process's lifetime on purpose. They
 * hang on Dawn's own `create` (the native module is loaded once per process), so that a module
 * registry that is thrown away (jest runs each test file in a fresh one) cannot drop them.
 */
function keepAlive(dawn: DawnModule, gpu: GPU): void {
  (dawn.create.tilegraphInstances ??= []).push(gpu);
}
let shared: Promise<{ backend: GpuBackend; fallback: boolean } | undefined> | undefined;
let lastAdapter: AdapterSummary | undefined;

/** Parses `auto | gpu | cpu` (CLI --backend, TILEGRAPH_BACKEND); undefined or '' means auto. */
export function parseBackendChoice(value: string | undefined): BackendChoice {
  const v = (value ?? '').trim().toLowerCase() || 'auto';
  if ((BACKEND_CHOICES as readonly string[]).includes(v)) return v as BackendChoice;
  throw new TilegraphError('render', `backend '${value}' is not one of auto, gpu, cpu`);
}

async function loadDawn(): Promise<DawnModule | undefined> {
  try {
    return (await import('webgpu')) as unknown as DawnModule;
  } catch {
    return undefined;
  }
}

function summarize(adapter: GPUAdapter): AdapterSummary {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const legacy = (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter;
  const text = `${info.vendor} ${info.architecture} ${info.device} ${info.description}`;
  const details: Record<string, string | number | boolean> = {};
  const keys = new Set(['vendor', 'architecture', 'device', 'description', 'subgroupMinSize', 'subgroupMaxSize', 'isFallbackAdapter']);
  for (const k in info) keys.add(k);
  for (const k of keys) {
    const v = (info as unknown as Record<string, unknown>)[k];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') details[k] = v;
  }
  return {
    description: info.description || `${info.vendor} ${info.architecture}`.trim(),
    vendor: info.vendor,
    architecture: info.architecture,
    fallback: !!info.isFallbackAdapter || !!legacy || /swiftshader/i.test(text),
    details,
    features: [...adapter.features].map(String).sort(),
  };
}

/** Defaults for SwiftShader: a writable XDG_RUNTIME_DIR, and the ICD when nothing else was found. */
function ensureRuntimeDir(): void {
  if (!process.env.XDG_RUNTIME_DIR) process.env.XDG_RUNTIME_DIR = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-xdg-'));
}

async function requestAdapter(allowFallback: boolean): Promise<GPUAdapter | undefined> {
  const dawn = await loadDawn();
  if (!dawn) return undefined;
  ensureRuntimeDir();
  const tryOnce = async (): Promise<GPUAdapter | undefined> => {
    // GPU timing: timestamps in nanoseconds, not Dawn's default 100 us quantization.
    const gpu = dawn.create(gpuTimestamps() ? ['disable-dawn-features=timestamp_quantization'] : []);
    keepAlive(dawn, gpu);
    return (await gpu.requestAdapter({ powerPreference: 'high-performance' })) ?? undefined;
  };
  let adapter = await tryOnce();
  // No adapter with the environment as given: try SwiftShader if it is installed and the caller accepts it.
  if (!adapter && allowFallback && !process.env.VK_ICD_FILENAMES && existsSync(SWIFTSHADER_ICD)) {
    process.env.VK_ICD_FILENAMES = SWIFTSHADER_ICD;
    adapter = await tryOnce();
  }
  if (adapter) lastAdapter = summarize(adapter);
  return adapter;
}

/**
 * TILEGRAPH_GPU_TIMESTAMPS=1: devices are made with 'timestamp-query' (when the adapter has it)
 * and GPU backends measure each render's GPU time (GpuTimings.gpuMs). The GPU bench sets it.
 */
export function gpuTimestamps(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.TILEGRAPH_GPU_TIMESTAMPS === '1';
}

async function requestDevice(adapter: GPUAdapter): Promise<GPUDevice> {
  const l = adapter.limits;
  // Large bbox renders need big textures and buffers: ask for what the adapter has.
  return adapter.requestDevice({
    requiredFeatures: gpuTimestamps() && adapter.features.has('timestamp-query') ? ['timestamp-query'] : [],
    requiredLimits: {
      maxTextureDimension2D: l.maxTextureDimension2D,
      maxBufferSize: l.maxBufferSize,
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    },
  });
}

/** The adapter the last GPU request found (for logs and the benchmark). */
export function gpuAdapterSummary(): AdapterSummary | undefined {
  return lastAdapter;
}

/**
 * A new Dawn device on its own adapter (undefined when there is none; with `allowFallback` false
 * a software adapter counts as none), and a function that makes its replacement after a loss.
 */
export async function createGpuDevice(
  options: { allowFallback?: boolean } = {},
): Promise<{ device: GPUDevice; adapter: AdapterSummary; recreate: () => Promise<GPUDevice> } | undefined> {
  const allowFallback = options.allowFallback ?? true;
  const adapter = await requestAdapter(allowFallback);
  if (!adapter) return undefined;
  const summary = summarize(adapter);
  if (summary.fallback && !allowFallback) return undefined;
  const recreate = async () => {
    const next = await requestAdapter(allowFallback);
    if (!next) throw new TilegraphError('render', 'the GPU device was lost and no adapter is left');
    return requestDevice(next);
  };
  return { device: await requestDevice(adapter), adapter: summary, recreate };
}

/**
 * The process's shared GPU backend, or undefined when no usable adapter exists (`allowFallback`
 * false: SwiftShader does not count). Concurrent renders share it; closeGpu() releases it.
 */
export async function createGpuBackend(options: { allowFallback?: boolean } = {}): Promise<GpuBackend | undefined> {
  const allowFallback = options.allowFallback ?? true;
  if (!shared) {
    // Without the fallback allowed, a software adapter is only looked at, no device is made.
    const attempt = (async () => {
      const made = await createGpuDevice({ allowFallback });
      return (
        made && { backend: new GpuBackend({ device: made.device, recreate: made.recreate, timestamps: gpuTimestamps() }), fallback: made.adapter.fallback }
      );
    })();
    shared = attempt;
    if (!(await attempt)) {
      // Nothing usable: a later call may try again (perhaps allowing the fallback).
      if (shared === attempt) shared = undefined;
      return undefined;
    }
  }
  const s = await shared;
  return !s || (s.fallback && !allowFallback) ? undefined : s.backend;
}

/**
 * A backend for a host: `cpu` the reference backend; `gpu` the WebGPU backend on any adapter,
 * SwiftShader included (throws when there is none); `auto` a hardware GPU when one exists, else
 * the CPU backend (SwiftShader is 3-40x slower than the CPU backend). The default choice is
 * TILEGRAPH_BACKEND, else `auto`.
 */
export async function createBackend(choice: BackendChoice | string | undefined = process.env.TILEGRAPH_BACKEND): Promise<Backend> {
  const c = parseBackendChoice(choice);
  if (c === 'cpu') return new CpuBackend();
  // `auto` on a Linux machine with no GPU device node has no hardware adapter to find: skip the
  // probe (it loads Dawn, and software Vulkan drivers print warnings while being rejected).
  if (c === 'auto' && !mayHaveHardwareGpu()) return new CpuBackend();
  const gpu = await createGpuBackend({ allowFallback: c === 'gpu' });
  if (gpu) return gpu;
  if (c === 'gpu') {
    throw new TilegraphError(
      'render',
      "backend gpu: no WebGPU adapter found (install a GPU driver, or Debian's chromium and libvulkan1 for SwiftShader; see docs/gpu.md)",
    );
  }
  return new CpuBackend();
}

/**
 * Whether a hardware GPU may be present. On Linux every GPU driver exposes a device node (DRM
 * render nodes /dev/dri/renderD*, or NVIDIA's /dev/nvidia*); other systems are always probed.
 */
export function mayHaveHardwareGpu(): boolean {
  if (process.platform !== 'linux') return true;
  try {
    if (readdirSync('/dev/dri').some((f) => f.startsWith('renderD'))) return true;
  } catch {
    // no /dev/dri
  }
  try {
    return readdirSync('/dev').some((f) => /^nvidia\d+$/.test(f));
  } catch {
    return false;
  }
}

/** Destroys the shared GPU device so the process can exit; a later createBackend makes a new one. */
export async function closeGpu(): Promise<void> {
  const s = await shared;
  shared = undefined;
  s?.backend.destroy();
}
