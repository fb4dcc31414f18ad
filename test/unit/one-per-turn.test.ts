import net, { type AddressInfo } from 'node:net';
import { connectionAccepted, onePerTurn } from '../../src/projections/one-per-turn';

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

  it('accepts a burst of new connections before it runs the work queued meanwhile', async () => {
    const inTurn = onePerTurn();
    const happened: string[] = [];
    const queued: Promise<void>[] = [];
    const server = net.createServer((socket) => {
      connectionAccepted();
      happened.push('accepted');
      if (!queued.length)
        for (let piece = 0; piece < 3; piece++) queued.push(inTurn(() => void happened.push('work')));
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // Connected within this turn: all ten wait in the listening socket's queue when the loop polls.
      for (let client = 0; client < 10; client++) net.connect(port, '127.0.0.1').on('error', () => undefined);
      while (queued.length < 3) await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(queued);

      expect(happened).toEqual([...Array<string>(10).fill('accepted'), 'work', 'work', 'work']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('waits for accepts 64 turns in a row at most', async () => {
    const inTurn = onePerTurn();
    let done = false;
    const work = inTurn(() => (done = true));
    let turnsWaited = 0;
    // Connections for 200 turns: enough to see the bound, and the test ends without it too.
    const acceptEveryTurn = () => {
      if (done || turnsWaited === 200) return;
      turnsWaited++;
      connectionAccepted();
      setImmediate(acceptEveryTurn);
    };
    connectionAccepted();
    setImmediate(acceptEveryTurn);

    await work;

    expect(turnsWaited).toBe(64);
  });
});
