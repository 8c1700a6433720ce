import os from 'node:os';

/**
 * Jest runs the TypeScript sources directly (swc strips types; `npm run typecheck` checks them).
 * At least two workers: jest's default (cores - 1) runs a 2-core machine's suites one at a time, while
 * the browser, CLI and server suites spend much of their time waiting on Chromium, child processes
 * and sockets. Full run on the 2-core VM, 2026-11-27: 1,087 s in band, 865 s with two workers (the
 * same 1,945 tests passing).
 */
export default {
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['<rootDir>/tests/helpers/transform.cjs', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/tests/**/*.test.ts', '<rootDir>/src/**/*.test.ts'],
  testTimeout: 120000,
  globalSetup: '<rootDir>/tests/helpers/generate.mjs',
};
