/** Jest runs the TypeScript sources directly (swc strips types; `npm run typecheck` checks them). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['<rootDir>/tests/helpers/transform.cjs', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  testTimeout: 120000,
  globalSetup: '<rootDir>/tests/helpers/generate.mjs',
};
