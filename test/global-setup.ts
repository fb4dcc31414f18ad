import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { BUILT_ROOT } from './support/built-suite';

const SOURCES = path.resolve(__dirname, '../src');

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return typeScriptFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Compiles src/ file by file (types stripped, as jest's Babel does) for the tests that spawn the suite. */
export default async function compileSuiteForProcesses(): Promise<void> {
  rmSync(BUILT_ROOT, { recursive: true, force: true });
  await build({
    entryPoints: typeScriptFiles(SOURCES),
    outbase: SOURCES,
    outdir: BUILT_ROOT,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}
