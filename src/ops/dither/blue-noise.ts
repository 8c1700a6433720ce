// A 64 x 64 tileable blue-noise threshold matrix by Ulichney's void-and-cluster method (1993):
// ranks 0..4095, each pixel's rank the order in which it joins the pattern, so every threshold
// level is a pattern with no low-frequency clumps. Made once per process (deterministic: a fixed
// seed and first-index tie-breaking), a few tens of ms.
import type { ThresholdMatrix } from './plan.js';

const SIZE = 64;
const N = SIZE * SIZE;
const SIGMA = 1.5;

let cached: ThresholdMatrix | undefined;

export function blueNoise64(): ThresholdMatrix {
  return (cached ??= { size: SIZE, ranks: voidAndCluster() });
}

function voidAndCluster(): Uint16Array {
  // Toroidal Gaussian energy, truncated at |dx|, |dy| <= REACH (exp(-8^2 / 4.5) < 1e-6).
  const REACH = 8;
  const g = new Float64Array((2 * REACH + 1) ** 2);
  for (let dy = -REACH; dy <= REACH; dy++) {
    for (let dx = -REACH; dx <= REACH; dx++) g[(dy + REACH) * (2 * REACH + 1) + dx + REACH] = Math.exp(-(dx * dx + dy * dy) / (2 * SIGMA * SIGMA));
  }
  const on = new Uint8Array(N);
  const energy = new Float64Array(N);
  const toggle = (q: number, sign: number) => {
    on[q] = sign > 0 ? 1 : 0;
    const qx = q % SIZE,
      qy = (q / SIZE) | 0;
    for (let dy = -REACH; dy <= REACH; dy++) {
      const row = ((qy + dy) & (SIZE - 1)) * SIZE;
      const k = (dy + REACH) * (2 * REACH + 1) + REACH;
      for (let dx = -REACH; dx <= REACH; dx++) energy[row + ((qx + dx) & (SIZE - 1))]! += sign * g[k + dx]!;
    }
  };
  const tightestCluster = () => {
    let best = -1,
      e = -Infinity;
    for (let i = 0; i < N; i++) if (on[i] && energy[i]! > e) (e = energy[i]!), (best = i);
    return best;
  };
  const largestVoid = () => {
    let best = -1,
      e = Infinity;
    for (let i = 0; i < N; i++) if (!on[i] && energy[i]! < e) (e = energy[i]!), (best = i);
    return best;
  };

  // The initial pattern: 10% of the pixels (seeded), relaxed until the tightest cluster is the
  // largest void.
  let s = 0x2545f491;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ones = Math.round(N / 10);
  for (let k = 0; k < ones; ) {
    const q = Math.floor(rand() * N);
    if (!on[q]) {
      toggle(q, 1);
      k++;
    }
  }
  for (let guard = 0; guard < N; guard++) {
    const c = tightestCluster();
    toggle(c, -1);
    const v = largestVoid();
    if (v === c) {
      toggle(c, 1);
      break;
    }
    toggle(v, 1);
  }
  const initial = on.slice();
  const initialEnergy = energy.slice();
  const ranks = new Uint16Array(N);

  // Phase 1: ranks ones - 1 .. 0 by removing the tightest cluster.
  for (let r = ones - 1; r >= 0; r--) {
    const c = tightestCluster();
    toggle(c, -1);
    ranks[c] = r;
  }
  // Phases 2 and 3: from the initial pattern, ranks ones .. N - 1 by filling the largest void
  // (past half, the largest void of the ones is the tightest cluster of the zeros).
  on.set(initial);
  energy.set(initialEnergy);
  for (let r = ones; r < N; r++) {
    const v = largestVoid();
    toggle(v, 1);
    ranks[v] = r;
  }
  return ranks;
}
