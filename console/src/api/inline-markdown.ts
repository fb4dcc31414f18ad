/** A piece of a description: plain text, a code span, or emphasised text. */
export type InlinePiece = { kind: 'text' | 'code' | 'emphasis' | 'strong'; text: string };

/**
 * The inline Markdown the modules' descriptions use: code spans (`` `svc_session` ``, a run of backticks
 * closed by a run as long) and `*emphasis*` or `**strong**`. Underscores are left alone: field names
 * such as `from_date` are written bare. A backtick without its closing run is text.
 */
const INLINE = /(?<!`)(`+)(?!`)([\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([^*]*?\S)\*\*|\*(?=[^\s*])([^*]*?[^\s*])\*/g;

/** A description cut into its pieces, in order; no markup is ever interpreted as HTML. */
export function inlinePieces(source: string): InlinePiece[] {
  const pieces: InlinePiece[] = [];
  let from = 0;
  for (const match of source.matchAll(INLINE)) {
    if (match.index > from) pieces.push({ kind: 'text', text: source.slice(from, match.index) });
    const [, , code, strong, emphasis] = match;
    if (code !== undefined) pieces.push({ kind: 'code', text: trimCodeSpan(code) });
    else if (strong !== undefined) pieces.push({ kind: 'strong', text: strong });
    else pieces.push({ kind: 'emphasis', text: emphasis ?? '' });
    from = match.index + match[0].length;
  }
  if (from < source.length) pieces.push({ kind: 'text', text: source.slice(from) });
  return pieces;
}

/** As CommonMark: one space either side is dropped, so that `` ` `` `` can hold a backtick. */
const trimCodeSpan = (code: string): string => (/^ .*\S.* $/s.test(code) ? code.slice(1, -1) : code);

/** A description as plain text, for where only text goes (an element's `title`). */
export const inlinePlainText = (source: string): string =>
  inlinePieces(source)
    .map((piece) => piece.text)
    .join('');
