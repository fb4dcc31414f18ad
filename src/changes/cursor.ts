import { DomainError } from '../commands/errors';

/**
 * Where a reader of a module's feed stands: every change before the event at `position` delivered,
 * and the first `taken` changes of that event (`ALL`: all of them). Position 0 is the log's start.
 */
export interface FeedPosition {
  position: number;
  taken: number;
}

export const ALL = -1;

/** The feed's start: nothing read yet. */
export const START: FeedPosition = { position: 0, taken: ALL };

/** A cursor names its module and its log (`log`: a tag of the log's first event), so that it is never read against another. */
export interface CursorScope {
  module: string;
  log: string;
}

const VERSION = 'c1';

export function encodeCursor(scope: CursorScope, at: FeedPosition): string {
  const text = [VERSION, scope.module, scope.log, at.position, at.taken].join('.');
  return Buffer.from(text).toString('base64url');
}

const restart = (module: string) =>
  `Start again from the beginning (no after) or from now (after=now), and read the records again with GET /api/v1/<resource> of module ${module}`;

/** A cursor this feed did not give (another module's, another log's, or no cursor at all), or one the log no longer reaches. */
export function cursorExpired(module: string, why: string): DomainError {
  return new DomainError('cursor_expired', `${why}. ${restart(module)}`, {
    restart: ['/api/v1/changes', '/api/v1/changes?after=now'],
  });
}

/** The position a cursor names, or `cursor_expired` when it is not one of this feed's. */
export function decodeCursor(scope: CursorScope, cursor: string): FeedPosition {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const [version, module, log, position, taken] = parts;
  const number = (text: string | undefined) =>
    text !== undefined && /^-?\d{1,16}$/.test(text) ? Number(text) : NaN;
  const at = { position: number(position), taken: number(taken) };
  if (
    parts.length !== 5 ||
    version !== VERSION ||
    !Number.isSafeInteger(at.position) ||
    at.position < 0 ||
    !(at.taken >= ALL)
  ) {
    throw cursorExpired(scope.module, 'This is not a cursor of this change feed');
  }
  if (module !== scope.module) throw cursorExpired(scope.module, `This cursor is of module ${module}'s feed`);
  // A cursor given before the log's first event stands at its start, whichever log that is.
  if (at.position > 0 && log !== scope.log)
    throw cursorExpired(scope.module, 'This cursor is of another log');
  return at;
}
