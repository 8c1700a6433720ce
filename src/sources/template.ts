// Tiles from URL / path templates ({z}/{x}/{y}), read through the host loader.
import { expandTemplate, tileInBounds } from './tiles.js';
import type { Loader } from './types.js';

export interface TemplateOptions {
  templates: string[];
  loader?: Loader;
  scheme?: 'xyz' | 'tms';
  /** [west, south, east, north]: tiles outside are absent, never requested. */
  bounds?: number[];
}

export class TemplateFetcher {
  readonly key: string;
  private readonly o: TemplateOptions;

  constructor(o: TemplateOptions) {
    this.o = o;
    this.key = o.templates.map((t) => o.loader?.key?.(t) ?? t).join('\n');
  }

  /** The reference of tile z/x/y (templates are spread over tiles, as map clients do). */
  ref(z: number, x: number, y: number): string {
    const t = this.o.templates[(x + y) % this.o.templates.length]!;
    return expandTemplate(t, z, x, y, this.o.scheme);
  }

  async fetch(z: number, x: number, y: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    if (!tileInBounds(this.o.bounds, z, x, y)) return undefined;
    const ref = this.ref(z, x, y);
    if (!this.o.loader) throw new Error(`no loader is bound to read '${ref}'`);
    try {
      return await this.o.loader.load(ref, undefined, signal);
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      if (String((e as Error)?.message).includes(ref)) throw e; // the loader named the ref already
      throw new Error(`cannot read '${ref}': ${(e as Error)?.message ?? e}`, { cause: e });
    }
  }
}

/** A declared `bounds` field, checked loosely (the style schema does not constrain it). */
export function declBounds(v: unknown): number[] | undefined {
  return Array.isArray(v) && v.length === 4 && v.every((n) => typeof n === 'number') ? (v as number[]) : undefined;
}
