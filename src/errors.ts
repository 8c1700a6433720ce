// Errors are values with a code, a JSON pointer and a sentence a style author understands.

export type ErrorCode =
  | 'style-invalid' // the document fails the format's JSON Schema or a reference check
  | 'build' // the graph cannot be built (kinds, cycles, padding bounds, functions)
  | 'param' // a param override fails its declaration
  | 'source' // a source failed to load or decode
  | 'render'; // anything else that failed while rendering

export interface Problem {
  /** JSON pointer into the style document ('' for the document itself). */
  pointer: string;
  message: string;
  /** For param problems: the param name. */
  param?: string;
}

export class TilegraphError extends Error {
  readonly code: ErrorCode;
  readonly problems: Problem[];
  constructor(code: ErrorCode, problems: Problem[] | string, options?: { cause?: unknown }) {
    const list = typeof problems === 'string' ? [{ pointer: '', message: problems }] : problems;
    super(list.map((p) => (p.pointer ? `${p.pointer}: ${p.message}` : p.message)).join('\n'), options);
    this.name = 'TilegraphError';
    this.code = code;
    this.problems = list;
  }
}

export class StyleError extends TilegraphError {
  constructor(problems: Problem[] | string) {
    super('style-invalid', problems);
    this.name = 'StyleError';
  }
}

export class BuildError extends TilegraphError {
  constructor(problems: Problem[] | string) {
    super('build', problems);
    this.name = 'BuildError';
  }
}

export class ParamError extends TilegraphError {
  constructor(problems: Problem[] | string) {
    super('param', problems);
    this.name = 'ParamError';
  }
}

/** A source failed: names the source, the tile (or byte range) and the cause. */
export class SourceError extends TilegraphError {
  readonly source: string;
  readonly tile?: string;
  constructor(source: string, tile: string | undefined, cause: string, options?: { cause?: unknown }) {
    super('source', [{ pointer: `/sources/${source}`, message: `source '${source}'${tile ? ` tile ${tile}` : ''}: ${cause}` }], options);
    this.name = 'SourceError';
    this.source = source;
    this.tile = tile;
  }
}

export class RenderError extends TilegraphError {
  constructor(problems: Problem[] | string, options?: { cause?: unknown }) {
    super('render', problems, options);
    this.name = 'RenderError';
  }
}

/** Escape one JSON pointer token (RFC 6901). */
export function ptr(...tokens: (string | number)[]): string {
  return tokens.map((t) => '/' + String(t).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
