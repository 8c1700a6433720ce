/// <reference types="@webgpu/types" />
// One render on the GPU: every pass goes into one command encoder, submitted once when the
// output is read back. State lives here (not in the backend) so concurrent renders can share a
// device. Ops without a GPU module run their CPU kernel here, after downloading their inputs
// (an extra submit and readback, counted in the stats).
import { cropValue } from '../cpu/raster.js';
import { RenderError } from '../../errors.js';
import { emptyStats, isDeviceValue, type Handle, type RenderStats, type Session } from '../backend.js';
import type { OpContext, OpDef } from '../../ops/types.js';
import type { Canvas, Kind, Raster, ScalarField, ValueOf } from '../../types.js';
import { BufferUsage, WG } from './constants.js';
import { READBACK_USAGE, STORAGE_USAGE, UNIFORM_USAGE, type DeviceContext, type PooledBuffer } from './context.js';
import { formatOf, GpuImage, isGpuImage, viewToCpu, type ImageKind, type PooledTexture } from './image.js';
import type { GpuEncoder } from './encoder.js';
import { bindGroup, layoutOf, packUniforms, type Bindings, type UniformValue } from './layout.js';
import type { Uniforms } from './uniforms.js';

/** What the session needs from its backend: the current healthy device. */
export interface DeviceSource {
  context(): Promise<DeviceContext>;
  /** Pipelining counters of the device's renders (GpuBackend.pipelining). */
  readonly pipelining?: PipeliningStats;
  /** Where the device's renders spend their time (GpuBackend.timings). */
  readonly timings?: GpuTimings;
}

const COPY_ROW_ALIGN = 256;
/**
 * Smallest storage binding: a binding must hold at least one element of the shader's array
 * (WebGPU's minimum binding size: 16 bytes for array<vec4f>, 48 for the circles' struct), also
 * when the data is empty (no feature in the window). Shaders take their counts from uniforms,
 * never from arrayLength, so the bytes past the data are never read. Pooled buffers are at least
 * 256 bytes anyway.
 */
const MIN_BINDING_BYTES = 256;

/**
 * How renders overlapped on one device: while one render waits for its readback, others record and
 * submit their own passes (a pyramid export keeps several tiles in flight this way).
 */
export interface PipeliningStats {
  /** Renders waiting for a readback right now. */
  readingBack: number;
  /** Renders that started encoding while another render of the device was waiting for its readback. */
  overlapped: number;
  /** Most renders waiting for a readback at once. */
  maxReadingBack: number;
}

/**
 * Where the GPU backend's renders spend their time, summed over every render of the backend
 * (wall-clock milliseconds, performance.now(): a handful of reads per op, cheap). Renders overlap
 * (a pyramid export keeps several in flight), so phases of different renders can overlap: divide
 * by `renders` for a per-tile figure, not by the export's wall time.
 */
export interface GpuTimings {
  /** Renders that read an output. */
  renders: number;
  /** From a render's first op to its end: its latency. */
  renderMs: number;
  /** In GPU ops' encode(): recording passes, plus their CPU-side preparation (triangulation, bins, uniforms, writeBuffer). */
  recordMs: number;
  /**
   * In ops run by their CPU kernel (sources and features, geometry, ops without a GPU module),
   * their inputs' downloads included (those are counted in wait and readback too).
   */
  cpuOpsMs: number;
  /** encoder.finish() + queue.submit(). */
  submitMs: number;
  /** Waiting for mapAsync: the GPU executing this render's passes, and queueing behind other work. */
  waitMs: number;
  /**
   * GPU time of the render's command buffers (timestamps before the first pass and after the
   * last, summed over its submits): what the GPU itself spent, queueing excluded (time-sliced
   * work of other devices in between included). Only with GpuBackendOptions.timestamps on a device
   * with 'timestamp-query'; `gpuTimed` counts the command buffers measured.
   */
  gpuMs: number;
  gpuTimed: number;
  /** getMappedRange, the f16 decode into Float32 and unmap. */
  readbackMs: number;
  submits: number;
  readbacks: number;
  bytesReadBack: number;
}

export const emptyTimings = (): GpuTimings => ({
  renders: 0,
  renderMs: 0,
  recordMs: 0,
  cpuOpsMs: 0,
  submitMs: 0,
  waitMs: 0,
  gpuMs: 0,
  gpuTimed: 0,
  readbackMs: 0,
  submits: 0,
  readbacks: 0,
  bytesReadBack: 0,
});

const now = (): number => performance.now();

export class GpuSession implements Session, GpuEncoder {
  readonly paintTargets = false;
  readonly stats: RenderStats = emptyStats();
  private dc?: DeviceContext;
  private encoder?: GPUCommandEncoder;
  private textures: PooledTexture[] = [];
  /**
   * Textures released mid-render (their last reader is encoded), reused by later nodes of this
   * render only: passes run in encoding order, so a later pass may overwrite them. They must not
   * go to the shared pool before the submit (another render could write them first).
   */
  private spare: PooledTexture[] = [];
  private buffers: PooledBuffer[] = [];
  /** CPU copies of textures this render uploaded or downloaded (a texture is written once), so no texture crosses twice. */
  private cpuCopies = new Map<PooledTexture, Float32Array>();
  /** performance.now() at the first op (timings). */
  private started = 0;
  /** The timestamp query set of the command buffer being encoded (GPU timing on), released at the end. */
  private stamped?: GPUQuerySet;
  private querySets: GPUQuerySet[] = [];
  /** The backend's timing counters (none for a bare DeviceSource). */
  private readonly t?: GpuTimings;

  constructor(private readonly source: DeviceSource) {
    this.t = source.timings;
  }

  get device(): GPUDevice {
    if (!this.dc) throw new RenderError('the GPU session has no device yet');
    return this.dc.device;
  }

  private get enc(): GPUCommandEncoder {
    if (!this.encoder) {
      this.encoder = this.device.createCommandEncoder();
      // GPU timing (opt-in): a timestamp before the command buffer's first pass.
      const qs = this.t && this.dc?.timestampQuerySet();
      this.stamped = qs;
      if (qs) this.encoder.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0 } }).end();
    }
    return this.encoder;
  }

  async run(op: OpDef, ctx: OpContext): Promise<Handle> {
    // The device is pinned at the first op: a render never mixes devices.
    if (!this.dc) {
      if (this.t) this.started = now();
      this.dc = await this.source.context();
      const p = this.source.pipelining;
      if (p && p.readingBack > 0) p.overlapped++;
    }
    const t = this.t;
    const t0 = t ? now() : 0;
    if (op.gpu) {
      const out = await op.gpu.encode(this, ctx);
      if (out) {
        if (t) t.recordMs += now() - t0;
        return out;
      }
    }
    try {
      return await this.runOnCpu(op, ctx);
    } finally {
      if (t) t.cpuOpsMs += now() - t0;
    }
  }

  crop(value: Handle, from: Canvas, to: Canvas): Handle {
    if (isGpuImage(value)) return value.crop(to.x0 - from.x0, to.y0 - from.y0, to.width, to.height);
    if (isDeviceValue(value)) throw new RenderError('a device value of another backend reached the GPU session');
    return cropValue(value, from, to);
  }

  /** The render's single readback: submit everything encoded, copy the output view, map it. */
  async read(value: Handle): Promise<Raster> {
    if (value.kind !== 'raster') throw new RenderError(`the output produced ${value.kind}, not a raster`);
    return (await this.readImage(value)) as Raster;
  }

  /** Any image (raster or scalar field) brought to the CPU: one submit and one readback. */
  async readImage(value: Handle): Promise<Raster | ScalarField> {
    if (!isGpuImage(value)) {
      if (isDeviceValue(value) || (value.kind !== 'raster' && value.kind !== 'scalar-field'))
        throw new RenderError(`a ${value.kind} is not an image of this session`);
      return value;
    }
    // An image made on the CPU (an op without a GPU module) is still there: no readback.
    const copy = this.cpuCopies.get(value.tex);
    const data = copy ? viewToCpu(value, copy, value.kind === 'raster' ? 4 : 1) : (await this.download([value]))[0]!;
    return { kind: value.kind, width: value.width, height: value.height, data } as Raster | ScalarField;
  }

  end(): void {
    const dc = this.dc;
    this.encoder = undefined;
    if (!dc) return;
    if (this.t && this.started) {
      this.t.renders++;
      this.t.renderMs += now() - this.started;
      this.started = 0;
    }
    for (const t of this.textures) dc.releaseTexture(t);
    for (const b of this.buffers) dc.releaseBuffer(b);
    for (const q of this.querySets) dc.releaseQuerySet(q);
    // A command buffer never submitted (nothing read back) never used its query set.
    if (this.stamped) dc.releaseQuerySet(this.stamped);
    this.querySets = [];
    this.stamped = undefined;
    this.textures = [];
    this.spare = [];
    this.buffers = [];
    this.cpuCopies.clear();
  }

  // --- GpuEncoder: what op modules use -------------------------------------------------------

  input(ctx: OpContext, field: string, grow?: number): GpuImage {
    const v = ctx.handle(field, grow);
    if (isGpuImage(v)) return v;
    if (!isDeviceValue(v) && (v.kind === 'raster' || v.kind === 'scalar-field')) return this.upload(v);
    throw new RenderError(`node '${ctx.id}' input '${field}' is ${v.kind}, not an image`);
  }

  output(kind: ImageKind, width: number, height: number): GpuImage {
    const max = this.device.limits.maxTextureDimension2D;
    if (width > max || height > max) {
      throw new RenderError(`a ${width} x ${height} px canvas exceeds this GPU's ${max} px texture limit; render a smaller window or use the CPU backend`);
    }
    const format = formatOf(kind);
    const w = Math.max(1, width);
    const h = Math.max(1, height);
    const i = this.spare.findIndex((t) => t.format === format && t.width === w && t.height === h);
    const tex = i >= 0 ? this.spare.splice(i, 1)[0]! : this.dc!.acquireTexture(format, w, h);
    if (i < 0) this.textures.push(tex);
    return new GpuImage(kind, tex, width, height);
  }

  /** A value no later node reads: its texture serves later outputs of this render. */
  release(value: Handle): void {
    if (!isGpuImage(value) || !this.textures.includes(value.tex) || this.spare.includes(value.tex)) return;
    this.cpuCopies.delete(value.tex);
    this.spare.push(value.tex);
  }

  private uniform(u: Uniforms): GPUBufferBinding {
    const bytes = u.bytes();
    const b = this.buffer(bytes.byteLength, UNIFORM_USAGE);
    this.device.queue.writeBuffer(b.buffer, 0, plain(bytes));
    return { buffer: b.buffer, offset: 0, size: bytes.byteLength };
  }

  uniforms(shader: string, values: Readonly<Record<string, UniformValue>>): GPUBufferBinding {
    return this.uniform(packUniforms(shader, layoutOf(shader), values));
  }

  storage(data: ArrayBufferView): GPUBufferBinding {
    const size = Math.max(MIN_BINDING_BYTES, Math.ceil(data.byteLength / 4) * 4);
    const b = this.buffer(size, STORAGE_USAGE);
    if (data.byteLength > 0) {
      const src = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      // writeBuffer wants a multiple of 4 bytes.
      const padded =
        data.byteLength % 4 === 0
          ? src
          : (() => {
              const p = new Uint8Array(size);
              p.set(src);
              return p;
            })();
      this.device.queue.writeBuffer(b.buffer, 0, plain(padded));
    }
    return { buffer: b.buffer, offset: 0, size };
  }

  scratch(bytes: number): GPUBufferBinding {
    const size = Math.max(MIN_BINDING_BYTES, Math.ceil(bytes / 4) * 4);
    const b = this.buffer(size, STORAGE_USAGE);
    this.enc.clearBuffer(b.buffer, 0, size);
    return { buffer: b.buffer, offset: 0, size };
  }

  table(data: Float32Array, width = data.length / 4): GPUTextureView {
    const rows = Math.max(1, Math.ceil(data.length / 4 / width));
    const tex = this.dc!.acquireTexture('rgba32float', width, rows);
    this.textures.push(tex);
    this.device.queue.writeTexture({ texture: tex.texture }, plain(data), { bytesPerRow: width * 16 }, [width, rows]);
    return tex.view;
  }

  view(img: GpuImage): GPUTextureView {
    return img.tex.view;
  }

  dispatch(shader: string, resources: Bindings, groups: readonly [number, number?, number?], entry = 'main', constants?: Record<string, number>): void {
    const [x, y = 1, z = 1] = groups;
    if (x <= 0 || y <= 0 || z <= 0) return;
    const pipeline = this.dc!.pipeline(shader, entry, constants);
    const bind = this.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: bindGroup(shader, layoutOf(shader), resources),
    });
    const pass = this.enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.dispatchWorkgroups(x, y, z);
    pass.end();
    this.stats.passes++;
  }

  draw(shader: string, resources: Bindings, target: GpuImage, vertexCount: number, firstVertex = 0): void {
    if (vertexCount <= 0) return;
    const pipeline = this.dc!.renderPipeline(shader, target.tex.format);
    const bind = this.device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: bindGroup(shader, layoutOf(shader), resources),
    });
    const pass = this.enc.beginRenderPass({ colorAttachments: [{ view: target.tex.view, loadOp: 'load', storeOp: 'store' }] });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    pass.draw(vertexCount, 1, firstVertex);
    pass.end();
    this.stats.passes++;
  }

  dispatch2d(shader: string, resources: Bindings, width: number, height: number, entry?: string, constants?: Record<string, number>): void {
    this.dispatch(shader, resources, [Math.ceil(width / WG), Math.ceil(height / WG)], entry, constants);
  }

  // --- internals ---------------------------------------------------------------------------

  private buffer(size: number, usage: number): PooledBuffer {
    const max = this.device.limits.maxStorageBufferBindingSize;
    if (size > max)
      throw new RenderError(`a pass needs a ${size}-byte buffer, over this GPU's ${max}-byte limit; render a smaller window or use the CPU backend`);
    const b = this.dc!.acquireBuffer(size, usage);
    this.buffers.push(b);
    return b;
  }

  /** A CPU raster or field as a GPU image (fields by a texture write, rasters through a pass that converts to f16). */
  private upload(v: Raster | ScalarField): GpuImage {
    const img = this.output(v.kind, v.width, v.height);
    this.cpuCopies.set(img.tex, v.data);
    if (v.width === 0 || v.height === 0) return img;
    // Through a pass (not queue.writeTexture, which would land before earlier passes that read
    // a reused texture): the data goes into a fresh buffer, the pass writes the texture in order.
    const shader = v.kind === 'raster' ? 'upload' : 'upload-field';
    const u = this.uniforms(shader, { size: [v.width, v.height] });
    this.dispatch2d(shader, { u, src: this.storage(v.data), dst: this.view(img) }, v.width, v.height);
    return img;
  }

  /** Submit what is encoded, copy each view to a mappable buffer, map them all: one readback per view. */
  private async download(views: GpuImage[]): Promise<Float32Array[]> {
    const enc = this.enc;
    const jobs = views.map((v) => {
      // A raster: widened to f32 on the GPU into a storage buffer (exact), so the CPU maps floats
      // rather than decoding f16 halves one by one (the decode was ~1-8 ms of a tile's CPU time
      // on a real GPU: docs/gpu.md). Past the storage binding limit, the f16 copy below.
      const f32Size = Math.max(1, v.width) * Math.max(1, v.height) * 16;
      if (v.kind === 'raster' && f32Size <= this.device.limits.maxStorageBufferBindingSize) {
        const sb = this.buffer(f32Size, STORAGE_USAGE);
        if (v.width > 0 && v.height > 0) {
          const u = this.uniforms('readback', { size: [v.width, v.height], src: v });
          this.dispatch2d('readback', { u, src: this.view(v), dst: { buffer: sb.buffer, offset: 0, size: f32Size } }, v.width, v.height);
        }
        const b = this.dc!.acquireBuffer(f32Size, READBACK_USAGE);
        enc.copyBufferToBuffer(sb.buffer, 0, b.buffer, 0, f32Size);
        return { v, b, bytesPerRow: v.width * 16, texel: 16, size: f32Size };
      }
      // A view that is not one rectangle of real data (it reaches past the valid rect) is first
      // materialised by a copy pass, so the texture copy below sees exactly the view.
      const src = v.isPlainRegion ? v : this.materialise(v);
      const texel = src.kind === 'raster' ? 8 : 4;
      const bytesPerRow = Math.ceil((Math.max(1, src.width) * texel) / COPY_ROW_ALIGN) * COPY_ROW_ALIGN;
      const size = bytesPerRow * Math.max(1, src.height);
      const b = this.dc!.acquireBuffer(size, READBACK_USAGE);
      if (src.width > 0 && src.height > 0) {
        enc.copyTextureToBuffer({ texture: src.tex.texture, origin: [src.ox, src.oy] }, { buffer: b.buffer, bytesPerRow }, [src.width, src.height]);
      }
      return { v: src, b, bytesPerRow, texel, size };
    });
    // GPU timing: a timestamp after the last pass, resolved and copied into a buffer mapped with the others.
    let stamps: PooledBuffer | undefined;
    const qs = this.stamped;
    if (qs) {
      enc.beginComputePass({ timestampWrites: { querySet: qs, endOfPassWriteIndex: 1 } }).end();
      const resolved = this.buffer(256, BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC);
      enc.resolveQuerySet(qs, 0, 2, resolved.buffer, 0);
      stamps = this.dc!.acquireBuffer(16, READBACK_USAGE);
      enc.copyBufferToBuffer(resolved.buffer, 0, stamps.buffer, 0, 16);
      this.querySets.push(qs);
      this.stamped = undefined;
    }
    this.submit();
    this.stats.readbacks += jobs.length;
    for (const j of jobs) this.stats.bytesReadBack += j.size;
    const t = this.t;
    if (t) {
      t.readbacks += jobs.length;
      for (const j of jobs) t.bytesReadBack += j.size;
    }
    const dc = this.dc!;
    const p = this.source.pipelining;
    if (p) {
      p.readingBack++;
      if (p.readingBack > p.maxReadingBack) p.maxReadingBack = p.readingBack;
    }
    const tWait = t ? now() : 0;
    try {
      await Promise.all([...jobs.map((j) => j.b.buffer.mapAsync(1 /* MapMode.READ */, 0, j.size)), ...(stamps ? [stamps.buffer.mapAsync(1, 0, 16)] : [])]);
    } catch (e) {
      for (const j of jobs) j.b.buffer.destroy();
      stamps?.buffer.destroy();
      // A failed map means the device is gone: mark it so the backend recreates it and retries.
      dc.lost ??= { reason: 'unknown', message: (e as Error)?.message ?? String(e) };
      throw new RenderError(`the GPU device was lost during the render (${dc.lost.message})`, { cause: e });
    } finally {
      if (p) p.readingBack--;
    }
    const tRead = t ? now() : 0;
    if (t) t.waitMs += tRead - tWait;
    if (stamps) {
      const [begin, end] = new BigUint64Array(stamps.buffer.getMappedRange(0, 16));
      stamps.buffer.unmap();
      this.buffers.push(stamps);
      // A pair the GPU did not write in order (a driver that resets the counter) is left out.
      if (t && end! >= begin! && begin! > 0n) {
        t.gpuMs += Number(end! - begin!) / 1e6;
        t.gpuTimed++;
      }
    }
    const out = jobs.map((j) => {
      const mapped = j.b.buffer.getMappedRange(0, j.size);
      const data =
        j.texel === 16
          ? new Float32Array(mapped, 0, j.v.width * j.v.height * 4).slice()
          : j.texel === 8
            ? decodeHalfRows(new Uint16Array(mapped), j.v.width, j.v.height, j.bytesPerRow / 2)
            : copyRows(new Float32Array(mapped), j.v.width, j.v.height, j.bytesPerRow / 4);
      j.b.buffer.unmap();
      this.buffers.push(j.b);
      return data;
    });
    if (t) t.readbackMs += now() - tRead;
    dc.checkErrors();
    return out;
  }

  /** The view copied into a texture of its own size (zeros where the view reads outside real data). */
  private materialise(v: GpuImage): GpuImage {
    const out = this.output(v.kind, v.width, v.height);
    const shader = v.kind === 'raster' ? 'copy' : 'copy-field';
    this.dispatch2d(shader, { u: this.uniforms(shader, { size: [v.width, v.height], src: v }), src: this.view(v), dst: this.view(out) }, v.width, v.height);
    return out;
  }

  private submit(): void {
    const t0 = this.t ? now() : 0;
    if (!this.encoder) this.encoder = this.device.createCommandEncoder();
    this.device.queue.submit([this.encoder.finish()]);
    this.encoder = undefined;
    this.stats.submits++;
    if (this.t) {
      this.t.submitMs += now() - t0;
      this.t.submits++;
    }
  }

  /** An op without a GPU module: download its image inputs, run the CPU kernel, upload an image result. */
  private async runOnCpu(op: OpDef, ctx: OpContext): Promise<Handle> {
    if (!op.cpu) throw new RenderError(`op '${op.name}' has neither a GPU module nor a CPU kernel`);
    const views: GpuImage[] = [];
    for (const field of Object.keys(op.inputs)) {
      // Not wired: unset, or a literal asset path in an asset field (x-asset).
      if (typeof ctx.node[field] !== 'string' || (op.fields[field]?.['x-asset'] && !String(ctx.node[field]).startsWith('@'))) continue;
      const v = ctx.handle(field);
      if (isGpuImage(v) && !this.cpuCopies.has(v.tex) && !views.some((w) => w.tex === v.tex)) views.push(fullView(v));
    }
    if (views.length > 0) {
      const data = await this.download(views);
      views.forEach((v, i) => this.cpuCopies.set(v.tex, data[i]!));
    }
    const texData = this.cpuCopies;
    const cpuCtx: OpContext = {
      ...ctx,
      input<K extends Kind>(field: string, grow?: number): ValueOf<K> {
        const v = ctx.handle(field, grow);
        if (!isDeviceValue(v)) return v as ValueOf<K>;
        if (!isGpuImage(v)) throw new RenderError(`node '${ctx.id}' input '${field}' is a device value of another backend`);
        const d = texData.get(v.tex);
        if (!d) throw new RenderError(`node '${ctx.id}' read input '${field}' that was not downloaded`);
        return { kind: v.kind, width: v.width, height: v.height, data: viewToCpu(v, d, v.kind === 'raster' ? 4 : 1) } as ValueOf<K>;
      },
    };
    const out = await op.cpu(cpuCtx);
    if (out.kind === 'raster' || out.kind === 'scalar-field') return this.upload(out);
    return out;
  }
}

/** Typed arrays here never sit on a SharedArrayBuffer; @webgpu/types wants that said. */
function plain(v: ArrayBufferView): ArrayBufferView<ArrayBuffer> {
  return v as ArrayBufferView<ArrayBuffer>;
}

/** The whole texture behind a view (downloads fetch textures, then crop on the CPU). */
function fullView(v: GpuImage): GpuImage {
  return new GpuImage(v.kind, v.tex, v.tex.width, v.tex.height, 0, 0);
}

function copyRows(src: Float32Array, width: number, height: number, stride: number): Float32Array {
  if (stride === width) return src.slice(0, width * height);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) out.set(src.subarray(y * stride, y * stride + width), y * width);
  return out;
}

let HALF: Float32Array | undefined;

/** IEEE half -> float for all 65536 bit patterns (built once; a constant table). */
function halfTable(): Float32Array {
  if (HALF) return HALF;
  const t = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 31;
    const m = h & 1023;
    t[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return (HALF = t);
}

function decodeHalfRows(src: Uint16Array, width: number, height: number, stride: number): Float32Array {
  const t = halfTable();
  const out = new Float32Array(width * height * 4);
  const rowLen = width * 4;
  for (let y = 0; y < height; y++) {
    const s = y * stride;
    const o = y * rowLen;
    for (let i = 0; i < rowLen; i++) out[o + i] = t[src[s + i]!]!;
  }
  return out;
}
