// Edit distance, for "did you mean" suggestions (unknown ops, fields, nodes, sources, params).

/** Levenshtein distance: insertions, deletions and substitutions, each costing 1. */
export function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

/** The candidate nearest to `name`, or undefined when there are none (or none within maxDistance). */
export function nearest(name: string, candidates: Iterable<string>, maxDistance = Infinity): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const dist = levenshtein(name, c);
    if (dist < bestD) {
      bestD = dist;
      best = c;
    }
  }
  return bestD <= maxDistance ? best : undefined;
}
