// Packs a WGSL uniform struct, honouring WGSL alignment (scalars 4, vec2 8, vec4 16, the View
// struct of common.wgsl 8). Fields are written in declaration order: layout.ts calls it field by
// field from a shader's `//!uniform` line.
import type { GpuImage } from './image.js';

export class Uniforms {
  private buf = new ArrayBuffer(256);
  private f32 = new Float32Array(this.buf);
  private i32 = new Int32Array(this.buf);
  private u32 = new Uint32Array(this.buf);
  private at = 0; // in 4-byte words

  private grow(words: number): void {
    if ((this.at + words) * 4 <= this.buf.byteLength) return;
    const next = new ArrayBuffer(Math.max(this.buf.byteLength * 2, (this.at + words) * 4 + 256));
    new Uint8Array(next).set(new Uint8Array(this.buf));
    this.buf = next;
    this.f32 = new Float32Array(next);
    this.i32 = new Int32Array(next);
    this.u32 = new Uint32Array(next);
  }

  private align(words: number): void {
    this.at = Math.ceil(this.at / words) * words;
  }

  f32s(...v: number[]): this {
    this.grow(v.length);
    for (const x of v) this.f32[this.at++] = x;
    return this;
  }

  u32s(...v: number[]): this {
    this.grow(v.length);
    for (const x of v) this.u32[this.at++] = x >>> 0;
    return this;
  }

  i32s(...v: number[]): this {
    this.grow(v.length);
    for (const x of v) this.i32[this.at++] = x | 0;
    return this;
  }

  vec2u(x: number, y: number): this {
    this.align(2);
    return this.u32s(x, y);
  }

  vec2f(x: number, y: number): this {
    this.align(2);
    return this.f32s(x, y);
  }

  vec4f(x: number, y: number, z: number, w: number): this {
    this.align(4);
    return this.f32s(x, y, z, w);
  }

  /** common.wgsl `View`: offset, valid rect, size of an input view. */
  view(img: GpuImage): this {
    this.align(2);
    const [x0, y0, x1, y1] = img.valid;
    return this.i32s(img.ox, img.oy, x0, y0, x1, y1, img.width, img.height);
  }

  /** The packed bytes, padded to a multiple of 16 (the struct's size rounds up to its alignment). */
  bytes(): Uint8Array {
    const words = Math.max(4, Math.ceil(this.at / 4) * 4);
    this.grow(words - this.at);
    return new Uint8Array(this.buf, 0, words * 4);
  }
}
