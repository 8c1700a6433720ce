// Jest's global setup: the generated modules the sources import are built, not committed
// (src/generated/wasm.ts from the .wat files, src/backends/gpu/shaders/index.ts from the .wgsl
// files); write them before any test imports a source, so a targeted run needs no `npm run build`.
// The PNG deflate addon (scripts/build-native.mjs) is rebuilt too when its C sources changed.
import { writeGenerated as writeShaders } from '../../scripts/gen-shaders.mjs';
import { writeGenerated as writeWasm } from '../../scripts/gen-wasm.mjs';
import { buildNative } from '../../scripts/build-native.mjs';

export default async function generate() {
  // Names this run for the browser tests' bundle build (tests/browser/harness.ts buildBundle: once a run).
  process.env.TILEGRAPH_TEST_RUN = `${Date.now()}-${process.pid}`;
  writeShaders();
  await writeWasm();
  const line = buildNative(); // dist/native/deflate.node and kernels.node, when a C source is newer
  if (line) console.log(line);
}
