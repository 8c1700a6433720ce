// What blend's CPU kernel and GPU pass share: the composite names and how a node picks one.
import type { OpContext } from '../types.js';

export const COMPOSITES = ['over', 'source-over', 'destination-out', 'dest-out', 'erase'] as const;
const ERASE = new Set<string>(['destination-out', 'dest-out', 'erase']);

/** The kernel's composite for a node: erase (any erasing name), atop (clip), or over. */
export function compositeOf(ctx: OpContext): 'over' | 'erase' | 'atop' {
  // Erasing can only lower the base's alpha, so `clip` changes nothing there.
  return ERASE.has(String(ctx.node.composite ?? 'over')) ? 'erase' : ctx.bool('clip') ? 'atop' : 'over';
}
