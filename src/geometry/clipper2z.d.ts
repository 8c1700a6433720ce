// clipper2-wasm's ES build (the package's `types` entry points at a file it does not ship).
declare module 'clipper2-wasm/dist/es/clipper2z.js' {
  const factory: (options?: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
