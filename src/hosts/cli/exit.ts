// Exit codes and one-line error messages of the CLI (docs/cli.md lists them).
import { TilegraphError } from '../../index.js';
import { NamedError } from '../named-error.js';

export const EXIT = {
  ok: 0,
  /** Bad usage: unknown command or option, malformed --tile/--bbox/--zoom/--shard. */
  usage: 1,
  /** The style cannot be read, parsed, validated or built. */
  style: 2,
  /** A --param override fails its declaration (or names no declared param). */
  param: 3,
  /** Rendering failed: a source could not be loaded or decoded, or an op failed. */
  render: 4,
  /** The output could not be written, or anything else went wrong. */
  output: 5,
  /** Stopped by SIGINT/SIGTERM (`tiles` keeps what it wrote for --resume). */
  interrupted: 130,
} as const;

/** A mistake in the command line (exit code 1). */
export class UsageError extends NamedError {}

/** The style file could not be read (exit code 2). */
export class StyleFileError extends NamedError {}

/** Stopped by a signal (exit code 130). */
export class InterruptedError extends NamedError {}

/** Writing the output failed (exit code 5). */
export class OutputError extends NamedError {}

export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof StyleFileError) return EXIT.style;
  if (e instanceof InterruptedError) return EXIT.interrupted;
  if (e instanceof TilegraphError || (e instanceof Error && 'code' in e && 'problems' in e)) {
    const code = (e as TilegraphError).code;
    if (code === 'style-invalid' || code === 'build') return EXIT.style;
    if (code === 'param') return EXIT.param;
    return EXIT.render;
  }
  if (e instanceof Error && e.name === 'AbortError') return EXIT.render;
  return EXIT.output;
}

const LABEL: Record<number, string> = {
  [EXIT.usage]: 'usage error',
  [EXIT.style]: 'style error',
  [EXIT.param]: 'param error',
  [EXIT.render]: 'render error',
  [EXIT.output]: 'error',
  [EXIT.interrupted]: 'interrupted',
};

/** One line: the kind of failure and every problem, joined (a style often has several at once). */
export function oneLine(e: unknown): string {
  const code = exitCodeOf(e);
  let text: string;
  if (e instanceof Error && 'problems' in e && Array.isArray((e as TilegraphError).problems)) {
    text = (e as TilegraphError).problems.map((p) => (p.pointer ? `${p.pointer}: ${p.message}` : p.message)).join('; ');
  } else {
    text = e instanceof Error ? e.message : String(e);
  }
  return `tilegraph: ${LABEL[code]}: ${text.replace(/\s*\n\s*/g, '; ')}`;
}
