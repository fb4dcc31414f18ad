import { Code } from '@mantine/core';
import { inlinePieces } from '../api/inline-markdown';

/** A module's description with its code spans and emphasis shown as such, built as React elements. */
export function InlineMarkdown({ text }: { text: string }) {
  return (
    <>
      {inlinePieces(text).map((piece, index) => {
        switch (piece.kind) {
          case 'code':
            return <Code key={index}>{piece.text}</Code>;
          case 'strong':
            return <strong key={index}>{piece.text}</strong>;
          case 'emphasis':
            return <em key={index}>{piece.text}</em>;
          case 'text':
            return piece.text;
        }
      })}
    </>
  );
}
