// Jest's global setup: src/generated/wasm.ts (the .wat files compiled) is built, not committed;
// write it before any test imports a source, so a targeted run works without `npm run build`.
import { writeGenerated as writeWasm } from '../../scripts/gen-wasm.mjs';

export default async function generate() {
  await writeWasm();
}
