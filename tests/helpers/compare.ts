// Image comparison for the tests: the one `tilegraph check` uses (per-channel tolerance on
// premultiplied 8-bit values, so colour noise under near-zero alpha does not count).
export { compareImages as compareRGBA, type Comparison, type Tolerance } from '../../src/hosts/cli/check.js';
