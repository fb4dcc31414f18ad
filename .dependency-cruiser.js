/**
 * The layers of src/, checked by `npm run lint` (`depcruise src`). Type-only imports count as much as
 * any other: a cycle of types ties two files together just the same, and becomes a runtime one with
 * the first value either of them imports.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files may not import each other, directly or through others (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'http-only-from-composition',
      severity: 'error',
      comment:
        'Only the composition root (main.ts, the serving of ports and roles in src/serving, the CLI) and the HTTP layer itself import src/api: ' +
        'the domain, the stores, privacy, log proofs, workers and the module registry (src/modules) do not, ' +
        'types included. Give them what they need from the composition root, or move it out of src/api.',
      from: {
        path: '^src/',
        pathNot: ['^src/api/', '^src/main[.]ts$', '^src/serving/', '^src/cli([.]ts$|/)'],
      },
      to: { path: '^src/api/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]d[.]ts$' },
    // Type-only imports are kept (the compiled output would drop them).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
    skipAnalysisNotInRules: true,
  },
};
