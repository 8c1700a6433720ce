/// <reference types="@webgpu/types" />
// Everything tied to one GPUDevice: compiled pipelines, pooled textures and buffers, and the
// device's health (lost, validation errors). Shared by every render on that device.
import { SHADERS } from './shaders/index.js';
import { RenderError } from '../../errors.js';
import { BufferUsage, TextureUsage } from './constants.js';
import type { PooledTexture } from './image.js';

export interface PooledBuffer {
  buffer: GPUBuffer;
  size: number;
  usage: number;
}

// RENDER_ATTACHMENT: a render pass (GpuEncoder.draw) takes its viewport from an output texture.
const TEXTURE_USAGE =
  TextureUsage.TEXTURE_BINDING | TextureUsage.STORAGE_BINDING | TextureUsage.COPY_SRC | TextureUsage.COPY_DST | TextureUsage.RENDER_ATTACHMENT;
const BYTES_PER_TEXEL: Partial<Record<GPUTextureFormat, number>> = { rgba16float: 8, r32float: 4, rgba32float: 16 };

export class DeviceContext {
  readonly device: GPUDevice;
  /** Set once the device is lost (or destroyed); renders on it fail and the backend recreates it. */
  lost?: { reason: string; message: string };
  /** Validation errors not yet reported to a render (each is a backend bug, never a style error). */
  private errors: string[] = [];
  private pipelines = new Map<string, GPUComputePipeline>();
  private renderPipelines = new Map<string, GPURenderPipeline>();
  private freeTextures = new Map<string, PooledTexture[]>();
  private freeBuffers = new Map<string, PooledBuffer[]>();
  private retainedBytes = 0;
  private readonly poolBytes: number;
  /** GPU timing on (GpuBackendOptions.timestamps) and the device has 'timestamp-query'. */
  readonly timestamps: boolean;
  private freeQuerySets: GPUQuerySet[] = [];

  constructor(device: GPUDevice, poolBytes: number, timestamps = false) {
    this.device = device;
    this.poolBytes = poolBytes;
    this.timestamps = timestamps && device.features.has('timestamp-query');
    device.lost.then((info) => {
      this.lost = { reason: String(info.reason), message: info.message };
    });
    device.addEventListener('uncapturederror', (ev) => {
      const msg = (ev as GPUUncapturedErrorEvent).error.message;
      if (this.errors.length < 8) this.errors.push(msg.split('\n')[0]!);
    });
  }

  /** Throws (once) the validation errors raised since the last check. */
  checkErrors(): void {
    if (this.errors.length === 0) return;
    const list = this.errors.splice(0);
    throw new RenderError(`the GPU rejected a command: ${list.join('; ')}`);
  }

  /** A compute pipeline for `shader` (<shader>.wgsl in src/backends/gpu/shaders/ or an op folder, with common.wgsl prepended), built once per device. */
  pipeline(shader: string, entry = 'main', constants?: Record<string, number>): GPUComputePipeline {
    const key = `${shader}:${entry}:${constants ? JSON.stringify(constants) : ''}`;
    let p = this.pipelines.get(key);
    if (!p) {
      const code = SHADERS[shader];
      if (code === undefined) throw new RenderError(`no WGSL shader '${shader}'`);
      const module = this.device.createShaderModule({ label: shader, code: SHADERS.common + '\n' + code });
      p = this.device.createComputePipeline({ label: `${shader}:${entry}`, layout: 'auto', compute: { module, entryPoint: entry, constants } });
      this.pipelines.set(key, p);
    }
    return p;
  }

  /**
   * A render pipeline for `shader`'s `vs` / `fs` entry points (triangle list, no vertex buffers:
   * the vertex shader pulls from storage), drawing over a `format` attachment it does not write
   * (its fragments write storage buffers), built once per device.
   */
  renderPipeline(shader: string, format: GPUTextureFormat): GPURenderPipeline {
    const key = `${shader}:${format}`;
    let p = this.renderPipelines.get(key);
    if (!p) {
      const code = SHADERS[shader];
      if (code === undefined) throw new RenderError(`no WGSL shader '${shader}'`);
      const module = this.device.createShaderModule({ label: shader, code: SHADERS.common + '\n' + code });
      p = this.device.createRenderPipeline({
        label: `${shader}:render`,
        layout: 'auto',
        vertex: { module, entryPoint: 'vs' },
        fragment: { module, entryPoint: 'fs', targets: [{ format, writeMask: 0 }] },
        primitive: { topology: 'triangle-list', cullMode: 'none' },
      });
      this.renderPipelines.set(key, p);
    }
    return p;
  }

  acquireTexture(format: GPUTextureFormat, width: number, height: number): PooledTexture {
    const key = `${format}:${width}x${height}`;
    const free = this.freeTextures.get(key);
    const hit = free?.pop();
    if (hit) {
      this.retainedBytes -= hit.bytes;
      return hit;
    }
    const texture = this.device.createTexture({ size: [width, height], format, usage: TEXTURE_USAGE });
    return { texture, view: texture.createView(), format, width, height, bytes: width * height * (BYTES_PER_TEXEL[format] ?? 16) };
  }

  releaseTexture(t: PooledTexture): void {
    if (this.lost) return;
    if (this.retainedBytes + t.bytes > this.poolBytes) {
      t.texture.destroy();
      return;
    }
    const key = `${t.format}:${t.width}x${t.height}`;
    let free = this.freeTextures.get(key);
    if (!free) this.freeTextures.set(key, (free = []));
    free.push(t);
    this.retainedBytes += t.bytes;
  }

  /** A buffer of at least `size` bytes (sizes are bucketed to powers of two so the pool hits). */
  acquireBuffer(size: number, usage: number): PooledBuffer {
    const bucket = Math.max(256, 2 ** Math.ceil(Math.log2(Math.max(1, size))));
    const key = `${usage}:${bucket}`;
    const hit = this.freeBuffers.get(key)?.pop();
    if (hit) {
      this.retainedBytes -= hit.size;
      return hit;
    }
    return { buffer: this.device.createBuffer({ size: bucket, usage }), size: bucket, usage };
  }

  releaseBuffer(b: PooledBuffer): void {
    if (this.lost || b.buffer.mapState !== 'unmapped') return;
    if (this.retainedBytes + b.size > this.poolBytes) {
      b.buffer.destroy();
      return;
    }
    const key = `${b.usage}:${b.size}`;
    let free = this.freeBuffers.get(key);
    if (!free) this.freeBuffers.set(key, (free = []));
    free.push(b);
    this.retainedBytes += b.size;
  }

  /** A timestamp query set of 2 (GPU timing), or undefined when timing is off. */
  timestampQuerySet(): GPUQuerySet | undefined {
    if (!this.timestamps || this.lost) return undefined;
    return this.freeQuerySets.pop() ?? this.device.createQuerySet({ type: 'timestamp', count: 2 });
  }

  releaseQuerySet(q: GPUQuerySet): void {
    if (this.lost) return;
    if (this.freeQuerySets.length < 64) this.freeQuerySets.push(q);
    else q.destroy();
  }

  /** Bytes held by the pools between renders (for tests and the benchmark). */
  get pooledBytes(): number {
    return this.retainedBytes;
  }

  destroy(): void {
    for (const list of this.freeTextures.values()) for (const t of list) t.texture.destroy();
    for (const list of this.freeBuffers.values()) for (const b of list) b.buffer.destroy();
    for (const q of this.freeQuerySets) q.destroy();
    this.freeQuerySets = [];
    this.freeTextures.clear();
    this.freeBuffers.clear();
    this.pipelines.clear();
    this.renderPipelines.clear();
    this.retainedBytes = 0;
    this.device.destroy();
  }
}

export const UNIFORM_USAGE = BufferUsage.UNIFORM | BufferUsage.COPY_DST;
export const STORAGE_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_DST | BufferUsage.COPY_SRC;
export const READBACK_USAGE = BufferUsage.MAP_READ | BufferUsage.COPY_DST;
