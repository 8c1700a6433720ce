/** A shader's interface as its `//!uniform` / `//!bind` lines declare it (scripts/gen-shaders.mjs). */
export interface ShaderInterface {
  uniform: [string, string][];
  bind: string[];
}
export function expandInterface(name: string, text: string): { text: string; layout: ShaderInterface | undefined };
export function generate(shaderDir?: string, opsDir?: string): string;
export function writeGenerated(): void;
