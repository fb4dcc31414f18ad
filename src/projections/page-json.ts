import type { FindQuery, FindResult } from './read-store';

/**
 * A page as the body of a list answer, `{"data":[...],"meta":{"total","limit","offset","next"}}`, encoded
 * once, with where each of its items ends: its items can be read back from it, so a cache keeps this
 * one copy of the page.
 */
export interface PageJson {
  total: number;
  next: string | null;
  body: Buffer;
  /** Where each item ends in `body`; the first starts after `{"data":[`, each other one after a comma. */
  ends: Uint32Array;
}

const DATA = '{"data":[';

export function encodePage(
  { total, items, next }: FindResult,
  { limit, offset }: Pick<FindQuery, 'limit' | 'offset'>,
): PageJson {
  const meta = JSON.stringify({ total, limit, offset, next });
  const body = Buffer.from(`${DATA}${items.join(',')}],"meta":${meta}}`);
  const ends = new Uint32Array(items.length);
  let end = DATA.length - 1;
  items.forEach((item, index) => {
    end += 1 + Buffer.byteLength(item);
    ends[index] = end;
  });
  return { total, next, body, ends };
}

/** The page's items, read back from its body. */
export function decodePage({ total, next, body, ends }: PageJson): FindResult {
  const items: string[] = [];
  let start = DATA.length;
  for (const end of ends) {
    items.push(body.toString('utf8', start, end));
    start = end + 1;
  }
  return { total, items, next };
}
