import fc from 'fast-check';
import { alignedColumns } from '../../src/cli/common';
import { escapeControls, escaped, jsonText } from '../../src/cli/terminal';

const TERMINAL_CONTROLS = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('what the CLI prints of a stored value', () => {
  it.each([
    ['a line break', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['an ANSI escape sequence', '\x1b[2J', '\\x1b[2J'],
    ['a C1 control sequence introducer', '\u009b31m', '\\x9b31m'],
    ['DEL and NUL', '\x7f\x00', '\\x7f\\x00'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['a right-to-left override', 'txt.\u202eexe', 'txt.\\u202eexe'],
  ])('escapes %s', (_case, value, shown) => {
    expect(escapeControls(value)).toBe(shown);
  });

  it('leaves letters of every script, emoji and spaces as they are', () => {
    expect(escapeControls('Zoë Ångström — 山田 😀 a b')).toBe('Zoë Ångström — 山田 😀 a b');
  });

  it('never holds a control character, whatever the value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        expect(escapeControls(value)).not.toMatch(TERMINAL_CONTROLS);
      }),
    );
  });

  it('escapes the values of a line of plain output, never its own text', () => {
    const id = 'key_1\n2';
    expect(escaped`Key ${id} revoked.\n`).toBe('Key key_1\\n2 revoked.\n');
  });

  it('keeps a table one row per record and its columns aligned on the escaped values', () => {
    expect(
      alignedColumns([
        ['NAME', 'MEMBER'],
        ['a\tb', 'x'],
        ['c', 'y\nforged'],
      ]),
    ).toEqual(['NAME  MEMBER', 'a\\tb  x', 'c     y\\nforged']);
  });

  it('prints JSON that parses back to the value stored, with nothing a terminal acts on inside its strings', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary' }), (value, text) => {
        for (const printed of [jsonText({ value, text }), jsonText({ value, text }, 2)]) {
          expect(JSON.parse(printed)).toEqual(JSON.parse(JSON.stringify({ value, text })));
          expect(printed.replace(/\n/g, '')).not.toMatch(TERMINAL_CONTROLS);
        }
      }),
    );
  });
});
