/// <reference types="@webgpu/types" />
// A shader's interface as it declares it once (`//!uniform` and `//!bind` lines of its .wgsl,
// scripts/gen-shaders.mjs): the encoder packs the uniform block and orders the bindings from it, so
// an op names each value and resource and cannot put one in the wrong place.
import { isGpuImage, type GpuImage } from './image.js';
import { SHADER_LAYOUTS } from './shaders/index.js';
import { Uniforms } from './uniforms.js';

export interface ShaderLayout {
  /** The fields of `struct U` in order, as [name, WGSL type]. */
  uniform: readonly (readonly [string, string])[];
  /** The bind group 0 names in binding order. */
  bind: readonly string[];
}

/** A uniform field's value: a number, a vector as numbers, or the input image of a `View` field. */
export type UniformValue = number | ArrayLike<number> | GpuImage;

function fail(shader: string, message: string): never {
  throw new Error(`shader ${shader}: ${message}`);
}

/** Numbers per packed field type (View aside). */
const SIZES: Readonly<Record<string, number>> = { f32: 1, u32: 1, i32: 1, vec2u: 2, vec2f: 2, vec4f: 4 };

/** `struct U` packed from named values (every declared field, nothing else). */
export function packUniforms(shader: string, layout: ShaderLayout, values: Readonly<Record<string, UniformValue>>): Uniforms {
  const u = new Uniforms();
  for (const [name, type] of layout.uniform) {
    const v = values[name];
    if (v === undefined) fail(shader, `no value for uniform ${name}`);
    if (type === 'View') {
      if (!isGpuImage(v)) fail(shader, `uniform ${name} is a View: give the image`);
      u.view(v);
      continue;
    }
    const want = SIZES[type] ?? fail(shader, `uniform ${name}: type ${type} is not packed (add it to layout.ts)`);
    const n = typeof v === 'number' ? 1 : isGpuImage(v) ? -1 : v.length;
    if (n !== want) fail(shader, `uniform ${name} (${type}) wants ${want} number(s)`);
    const xs = v as number | ArrayLike<number>;
    if (typeof xs === 'number') {
      if (type === 'f32') u.f32s(xs);
      else if (type === 'u32') u.u32s(xs);
      else u.i32s(xs);
    } else if (type === 'vec4f') u.vec4f(xs[0]!, xs[1]!, xs[2]!, xs[3]!);
    else if (type === 'vec2u') u.vec2u(xs[0]!, xs[1]!);
    else if (type === 'vec2f') u.vec2f(xs[0]!, xs[1]!);
    else if (type === 'f32') u.f32s(xs[0]!);
    else if (type === 'u32') u.u32s(xs[0]!);
    else u.i32s(xs[0]!);
  }
  // Every declared field was found above: more keys means one is not declared.
  if (Object.keys(values).length !== layout.uniform.length) {
    for (const name of Object.keys(values)) if (!layout.uniform.some(([f]) => f === name)) fail(shader, `uniform ${name} is not declared`);
  }
  return u;
}

/** A pass's bind group 0 by the names its shader's `//!bind` lines give. */
export type Bindings = Readonly<Record<string, GPUBindingResource>>;

/** Bind group 0's entries: the named resources numbered as the shader declares them (every one, nothing else). */
export function bindGroup(shader: string, layout: ShaderLayout, resources: Bindings): GPUBindGroupEntry[] {
  const entries = layout.bind.map((name, binding) => ({ binding, resource: resources[name] ?? fail(shader, `no resource for binding ${name}`) }));
  // Every declared binding was found above: more keys means one is not declared.
  if (Object.keys(resources).length !== entries.length) {
    for (const name of Object.keys(resources)) if (!layout.bind.includes(name)) fail(shader, `binding ${name} is not declared`);
  }
  return entries;
}

/** The declared layout of `shader` (from its `//!uniform` / `//!bind` lines). */
export function layoutOf(shader: string): ShaderLayout {
  return SHADER_LAYOUTS[shader] ?? fail(shader, 'declares no //!uniform / //!bind lines');
}
