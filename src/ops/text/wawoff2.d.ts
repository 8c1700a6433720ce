// wawoff2's decoder (CommonJS; no types shipped for this entry).
declare module 'wawoff2/decompress.js' {
  const decompress: (woff2: Uint8Array) => Promise<Uint8Array>;
  export default decompress;
}
