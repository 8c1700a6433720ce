// Tests that read the real third-party data in ../shared/fixtures. Without it they are reported as
// skipped (loudly), never as passed; TILEGRAPH_REQUIRE_FIXTURES=1 (CI) makes its absence a failure.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.resolve('../shared/fixtures');
export const fixturesPresent = existsSync(FIXTURES);

if (!fixturesPresent) {
  const msg = `../shared/fixtures is ABSENT (${FIXTURES}): tests on real third-party data are SKIPPED.`;
  if (process.env.TILEGRAPH_REQUIRE_FIXTURES === '1') throw new Error(`${msg} TILEGRAPH_REQUIRE_FIXTURES=1 makes this a failure.`);
  console.warn(`\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!!! ${msg}\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n`);
}

/** `test` when ../shared/fixtures exists, else `test.skip`. */
export const fixturesTest: typeof test = fixturesPresent ? test : (test.skip as typeof test);
export const fixturesDescribe: typeof describe = fixturesPresent ? describe : (describe.skip as typeof describe);

/** A file under ../shared/fixtures. */
export const fixture = (...parts: string[]): string => path.join(FIXTURES, ...parts);
