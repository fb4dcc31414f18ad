import { onePerTurn } from '../../src/projections/one-per-turn';

describe('onePerTurn', () => {
  it('runs queued work in order, one piece per turn: what the loop scheduled meanwhile runs in between', async () => {
    const inTurn = onePerTurn();
    const ran: string[] = [];
    const piece = (name: string) =>
      inTurn(() => {
        ran.push(name);
        setImmediate(() => ran.push(`turn after ${name}`));
        return name.toUpperCase();
      });

    const answers = await Promise.all(['a', 'b', 'c'].map(piece));

    expect(answers).toEqual(['A', 'B', 'C']);
    expect(ran).toEqual(['a', 'turn after a', 'b', 'turn after b', 'c']);
  });

  it('rejects the piece that throws and runs the next one', async () => {
    const inTurn = onePerTurn();
    const failing = inTurn(() => {
      throw new Error('no such table');
    });
    const next = inTurn(() => 'answered');

    await expect(failing).rejects.toThrow('no such table');
    await expect(next).resolves.toBe('answered');
  });

  it('starts again after it ran dry', async () => {
    const inTurn = onePerTurn();
    await inTurn(() => 1);
    await expect(inTurn(() => 2)).resolves.toBe(2);
  });
});
