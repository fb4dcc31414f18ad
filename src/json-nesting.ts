/**
 * How deep arrays and objects may nest in what the suite accepts: far beyond any honest payload, and
 * far below what the recursive parts of the runtime (JSON.stringify, canonical hashing) can walk.
 */
export const MAX_JSON_NESTING = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether a JSON text nests arrays and objects deeper than `max` levels, read without parsing it (so a
 * hostile text is refused before anything recursive meets it). Brackets inside strings do not count.
 */
export function jsonNestsDeeperThan(text: string, max: number = MAX_JSON_NESTING): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
