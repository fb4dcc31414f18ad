import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { apiDescriptions, descriptionDigest } from '../../src/api/descriptions';

const DOCS = path.join(__dirname, '..', '..', 'docs', 'api');
const recorded = JSON.parse(readFileSync(path.join(DOCS, 'digests.json'), 'utf8')) as Record<
  string,
  { sha256: string }
>;
const apis = apiDescriptions();

describe('docs/api, the reference rendered from the descriptions (npm run docs)', () => {
  it('has a page for every API and for none that is gone', () => {
    expect(Object.keys(recorded)).toEqual(apis.map((api) => api.id));
    for (const api of apis) expect(existsSync(path.join(DOCS, `${api.id}.html`))).toBe(true);
  });

  it.each(apis.map((api) => [api.id, api] as const))(
    'renders the description %s has today (else: npm run docs)',
    (_id, api) => {
      expect(recorded[api.id]?.sha256).toBe(descriptionDigest(api.document));
    },
  );
});
