/// <reference types="@webgpu/types" />
// What an op's GPU pass sees: the render's encoder facade. An op's `gpu.ts` (src/ops/<op>/) encodes
// its passes through it; its WGSL is src/ops/<op>/<op>.wgsl, named by the file name.
import type { OpContext } from '../../ops/types.js';
import type { GpuImage, ImageKind } from './image.js';
import type { Bindings, UniformValue } from './layout.js';

export interface GpuEncoder {
  readonly device: GPUDevice;
  /** A raster or scalar-field input as a GPU view (uploaded once if it arrived on the CPU). */
  input(ctx: OpContext, field: string, grow?: number): GpuImage;
  /** A fresh pooled texture for this render (contents undefined: a pass must write every pixel). */
  output(kind: ImageKind, width: number, height: number): GpuImage;
  /** The uniform block of a shader declaring `//!uniform`, packed from its fields by name. */
  uniforms(shader: string, values: Readonly<Record<string, UniformValue>>): GPUBufferBinding;
  /** A read-only storage buffer binding holding `data` (at least 4 bytes are bound). */
  storage(data: ArrayBufferView): GPUBufferBinding;
  /** A zero-filled read-write storage buffer of `bytes` (cleared in the command stream). */
  scratch(bytes: number): GPUBufferBinding;
  /** An rgba32float texture of `width` texels per row holding `data` (lookup tables; default one row). */
  table(data: Float32Array, width?: number): GPUTextureView;
  /** The resource that binds an image's texture (sampled, or as the storage target when it is an output). */
  view(img: GpuImage): GPUTextureView;
  /**
   * One compute pass of `shader`'s `entry` with bind group 0 = `resources`, named as the shader's
   * `//!bind` lines name them (scripts/gen-shaders.mjs).
   */
  dispatch(shader: string, resources: Bindings, groups: readonly [number, number?, number?], entry?: string, constants?: Record<string, number>): void;
  /**
   * One render pass: `vertexCount` vertices (from `firstVertex`) of `shader`'s `vs` / `fs` as a
   * triangle list over `target`'s pixels, bind group 0 = `resources`. The fragments write storage
   * buffers; the target only sets the viewport and is left unchanged.
   */
  draw(shader: string, resources: Bindings, target: GpuImage, vertexCount: number, firstVertex?: number): void;
  /** One compute pass over a width x height image in 8 x 8 workgroups. */
  dispatch2d(shader: string, resources: Bindings, width: number, height: number, entry?: string, constants?: Record<string, number>): void;
}

export interface GpuOp {
  /**
   * Encodes the op's passes and returns its output view. Returning undefined runs the op's CPU
   * kernel instead (for inputs the GPU module does not cover); that costs a download.
   */
  encode(g: GpuEncoder, ctx: OpContext): GpuImage | undefined | Promise<GpuImage | undefined>;
}
