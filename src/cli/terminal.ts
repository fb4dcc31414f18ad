/**
 * Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides: what
 * a terminal acts on rather than shows, so a stored value holding one could forge rows or rewrite
 * the screen (ANSI escape sequences).
 */
const CONTROLS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** What JSON.stringify leaves raw in a string (it escapes C0 itself; its own line breaks are layout). */
const RAW_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

const escapeOne = (char: string): string => {
  const known = NAMED[char];
  if (known !== undefined) return known;
  const code = char.codePointAt(0) as number;
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** A value as the CLI prints it: its control characters escaped (`\n`, `\t`, `\x1b`, `\u2028`). */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, escapeOne);
}

/**
 * A line of plain output: the values interpolated into it are escaped, the template's own text is
 * not (`` escaped`Key ${id} revoked.` ``).
 */
export function escaped(template: TemplateStringsArray, ...values: unknown[]): string {
  return template.reduce((line, text, index) => line + escapeControls(String(values[index - 1])) + text);
}

/**
 * A value as JSON for a terminal: still JSON, with the control characters JSON itself leaves raw
 * (DEL, C1, separators, overrides) written as `\u` escapes too.
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    RAW_IN_JSON,
    (char) => `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}
