// A shader's `//!uniform` / `//!bind` lines: what the build writes out (scripts/gen-shaders.mjs)
// and how the encoder holds an op to them (layout.ts). That the packed bytes are what the shaders
// read is shown on a device by every op's CPU/GPU parity test; here, the declaration's rules.
import { expandInterface } from '../../../scripts/gen-shaders.mjs';
import { bindGroup, packUniforms, type ShaderLayout } from './layout.js';
import { SHADER_LAYOUTS, SHADERS } from './shaders/index.js';

describe('//!uniform and //!bind written out as WGSL', () => {
  test('struct U in order, bindings numbered in order, a later //!bind going on numbering', () => {
    const { text, layout } = expandInterface(
      't',
      '//!uniform size: vec2u, src: View, k: f32\n//!bind u: uniform, src: texture, xs: array<vec4f>\n//!bind acc: read_write array<atomic<i32>>, dst: r32float\n',
    );
    expect(text).toBe(
      [
        'struct U {',
        '  size: vec2u,',
        '  src: View,',
        '  k: f32,',
        '}',
        '@group(0) @binding(0) var<uniform> u: U;',
        '@group(0) @binding(1) var src: texture_2d<f32>;',
        '@group(0) @binding(2) var<storage, read> xs: array<vec4f>;',
        '@group(0) @binding(3) var<storage, read_write> acc: array<atomic<i32>>;',
        '@group(0) @binding(4) var dst: texture_storage_2d<r32float, write>;',
        '',
      ].join('\n'),
    );
    expect(layout).toEqual({
      uniform: [
        ['size', 'vec2u'],
        ['src', 'View'],
        ['k', 'f32'],
      ],
      bind: ['u', 'src', 'xs', 'acc', 'dst'],
    });
  });

  test('an unknown binding kind or a line it cannot read fails the build, naming the shader', () => {
    expect(() => expandInterface('t', '//!bind u: uniform, x: sampler\n')).toThrow(/t\.wgsl .*x has an unknown kind "sampler"/);
    expect(() => expandInterface('t', '//!bind u uniform\n')).toThrow(/t\.wgsl .*cannot read "u uniform"/);
    expect(() => expandInterface('t', '//!uniform size: vec2u\n')).toThrow(/a \/\/!uniform without a \/\/!bind/);
  });

  test('every shader with bindings declares them this way (no hand-numbered @binding left)', () => {
    for (const [name, code] of Object.entries(SHADERS)) {
      if (!code.includes('@binding(')) continue;
      expect({ name, declared: SHADER_LAYOUTS[name] !== undefined }).toEqual({ name, declared: true });
    }
  });
});

describe('the encoder reads the declaration', () => {
  const layout: ShaderLayout = {
    uniform: [
      ['size', 'vec2u'],
      ['k', 'f32'],
      ['c', 'vec4f'],
    ],
    bind: ['u', 'src', 'dst'],
  };

  test('uniforms packed by name with WGSL alignment: vec2u at 0, f32 at 8, vec4f at 16, 32 bytes', () => {
    const bytes = packUniforms('t', layout, { c: [1, 2, 3, 4], k: 0.5, size: [7, 9] }).bytes();
    expect(bytes.byteLength).toBe(32);
    const u32 = new Uint32Array(bytes.buffer, bytes.byteOffset, 8);
    const f32 = new Float32Array(bytes.buffer, bytes.byteOffset, 8);
    expect([u32[0], u32[1], f32[2], f32[4], f32[5], f32[6], f32[7]]).toEqual([7, 9, 0.5, 1, 2, 3, 4]);
  });

  test('a missing, undeclared or misshapen uniform throws, naming the shader and the field', () => {
    expect(() => packUniforms('t', layout, { size: [1, 1], k: 1 })).toThrow('shader t: no value for uniform c');
    expect(() => packUniforms('t', layout, { size: [1, 1], k: 1, c: [1, 2, 3, 4], extra: 2 })).toThrow('shader t: uniform extra is not declared');
    expect(() => packUniforms('t', layout, { size: [1, 1], k: [1, 2], c: [1, 2, 3, 4] })).toThrow('shader t: uniform k (f32) wants 1 number(s)');
  });

  test('bindings ordered by the declaration; a missing or undeclared one throws', () => {
    const r = (n: number) => ({ buffer: n }) as unknown as GPUBindingResource;
    expect(bindGroup('t', layout, { dst: r(3), u: r(1), src: r(2) }).map((e) => [e.binding, (e.resource as unknown as { buffer: number }).buffer])).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(() => bindGroup('t', layout, { u: r(1), dst: r(3) })).toThrow('shader t: no resource for binding src');
    expect(() => bindGroup('t', layout, { u: r(1), src: r(2), dst: r(3), more: r(4) })).toThrow('shader t: binding more is not declared');
  });
});
