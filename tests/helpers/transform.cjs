// @swc/jest, plus one line for jest 30: its node environment makes the global object a Proxy, so
// every bare `Math` in a hot loop is a proxied global lookup (~100x slower than in plain Node).
// Binding the hot globals once per module keeps kernels at their real speed under test.
const { createTransformer } = require('@swc/jest');

const PRELUDE = 'const { Math, Number, Float32Array, Float64Array, Int32Array, Uint8Array, Uint32Array } = globalThis; ';

module.exports = {
  createTransformer(options) {
    const swc = createTransformer(options);
    const wrap = (out, path) =>
      path.includes('/src/') && typeof out.code === 'string' ? { ...out, code: PRELUDE + out.code } : out;
    return {
      ...swc,
      process: (src, path, opts) => wrap(swc.process(src, path, opts), path),
      processAsync: swc.processAsync ? async (src, path, opts) => wrap(await swc.processAsync(src, path, opts), path) : undefined,
      getCacheKey: (src, path, opts) => 'tg1' + swc.getCacheKey(src, path, opts),
    };
  },
};
