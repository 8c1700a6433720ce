// channel-shuffle on straight (non-premultiplied) sRGB: output channel k takes input channel
// sources[k] (0..3: r, g, b, a) or a constant (4: 0, 5: 1); the result is premultiplied by its
// new alpha. A transparent input pixel has straight colour 0; straight values clamp to 1 (rounding
// can leave a premultiplied channel a hair above its alpha), so no alpha exceeds 1.
import type { NodeSpec } from '../types.js';

export const CHANNELS = ['r', 'g', 'b', 'a', '0', '1'] as const;
export type Channel = (typeof CHANNELS)[number];
const OUTPUTS = ['r', 'g', 'b', 'a'] as const;

/** The source index (into CHANNELS) of each output channel; identity by default. */
export function sourcesOf(node: NodeSpec): [number, number, number, number] {
  return OUTPUTS.map((k) => CHANNELS.indexOf(((node[k] as Channel | undefined) ?? k) as Channel)) as [number, number, number, number];
}

export function channelShuffle(src: Float32Array, dst: Float32Array, sources: readonly number[]): void {
  const s = new Float64Array(6);
  s[5] = 1;
  const [sr, sg, sb, sa] = sources as [number, number, number, number];
  for (let i = 0; i < src.length; i += 4) {
    const a = src[i + 3]!;
    const inv = a > 0 ? 1 / a : 0;
    s[0] = Math.min(1, src[i]! * inv);
    s[1] = Math.min(1, src[i + 1]! * inv);
    s[2] = Math.min(1, src[i + 2]! * inv);
    s[3] = a;
    const oa = s[sa]!;
    dst[i] = s[sr]! * oa;
    dst[i + 1] = s[sg]! * oa;
    dst[i + 2] = s[sb]! * oa;
    dst[i + 3] = oa;
  }
}
