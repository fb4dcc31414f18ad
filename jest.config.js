/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.[tj]s$': 'babel-jest' },
  // jose is published as ES modules only: babel turns it into CommonJS for jest, as for our sources.
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  // A timeout catches a hang; it does not check speed. Jest's 5 s default failed a property test that
  // passes within it on one 2-core machine and took 5.5 to 5.9 s on another, slower one.
  testTimeout: 30_000,
  // Compiles src/ once for the tests that start the suite as a process (test/support/built-suite.ts).
  globalSetup: '<rootDir>/test/global-setup.ts',
  // Jest's default on 2 cores is one worker; most files wait on child processes and I/O, so two keep
  // both cores busy and `npm test` within its 10 minutes.
  maxWorkers: 2,
};
