/**
 * `npm run docs [-- <api id>...]`: renders each API's OpenAPI description into `docs/api/<id>.html`
 * with Redocly's `build-docs` (one self-contained page, readable offline), writes the description
 * beside it (`<id>.openapi.json`) and records its digest in `docs/api/digests.json`, which
 * `test/unit/api-docs.test.ts` compares with the description the code gives today.
 *
 * The descriptions are built in-process from the module declarations (no port, no store), and the
 * output depends on nothing but them: the same code renders the same files, byte for byte.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiDescriptions, descriptionDigest } from '../src/api/descriptions';

const DOCS = path.join(__dirname, '..', 'docs', 'api');
const DIGESTS = path.join(DOCS, 'digests.json');
const REDOCLY = path.join(__dirname, '..', 'node_modules', '.bin', 'redocly');

type Digests = Record<string, { title: string; version: string; sha256: string }>;

const apis = apiDescriptions();
const asked = process.argv.slice(2);
const unknown = asked.filter((id) => !apis.some((api) => api.id === id));
if (unknown.length > 0) {
  console.error(`Unknown API ${unknown.join(', ')}: one of ${apis.map((api) => api.id).join(', ')}`);
  process.exit(1);
}

const kept: Digests = existsSync(DIGESTS) ? (JSON.parse(readFileSync(DIGESTS, 'utf8')) as Digests) : {};
const scratch = mkdtempSync(path.join(tmpdir(), 'suite-api-docs-'));
const digests: Digests = {};
try {
  for (const api of apis) {
    const previous = kept[api.id];
    if (asked.length > 0 && !asked.includes(api.id) && previous) {
      digests[api.id] = previous;
      continue;
    }
    const description = `${JSON.stringify(api.document, null, 2)}\n`;
    const input = path.join(scratch, `${api.id}.openapi.json`);
    writeFileSync(input, description);
    execFileSync(
      REDOCLY,
      [
        'build-docs',
        input,
        // The Redoc scripts inside the page, not loaded from a CDN: the page works offline.
        '--inlineBundle',
        '--output',
        path.join(DOCS, `${api.id}.html`),
        '--title',
        api.title,
      ],
      // No telemetry, no update check: the docs are built offline, the same way every time.
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    writeFileSync(path.join(DOCS, `${api.id}.openapi.json`), description);
    digests[api.id] = { title: api.title, version: api.version, sha256: descriptionDigest(api.document) };
    console.log(`docs/api/${api.id}.html  ${api.title} ${api.version}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
writeFileSync(DIGESTS, `${JSON.stringify(digests, null, 2)}\n`);
