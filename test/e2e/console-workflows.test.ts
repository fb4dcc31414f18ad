import { WORKFLOWS } from '../../console/src/api/workflows';
import { LEAVE_TRANSITIONS } from '../../src/commands/hrm/leave';

/** Each status's next statuses, as a module's rules state them (statuses without a move left out). */
function nextByStatus(moves: Iterable<[from: string, to: string]>): Record<string, string[]> {
  const next: Record<string, string[]> = {};
  for (const [from, to] of moves) next[from] = [...(next[from] ?? []), to].sort();
  return next;
}

const sorted = (workflow: Readonly<Record<string, readonly string[]>> | undefined) =>
  Object.fromEntries(Object.entries(workflow ?? {}).map(([from, next]) => [from, [...next].sort()]));

// The console offers only the moves a record's workflow allows (where the record does not tell them
// itself, as a request does): the same as the modules decide by.
describe("the console's workflows are the modules' own", () => {
  it('leave applications', () => {
    const moves = Object.entries(LEAVE_TRANSITIONS).flatMap(([from, next]) =>
      next.map((to): [string, string] => [from, to]),
    );
    expect(sorted(WORKFLOWS['hrm/leave'])).toEqual(nextByStatus(moves));
  });
});
