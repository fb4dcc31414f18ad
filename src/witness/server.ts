import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { addCheckpoint, type Witness, type WitnessAnswer } from './add-checkpoint';

/** The largest request read: 63 proof lines and a checkpoint with its signatures fit many times over. */
export const BODY_LIMIT_BYTES = 64 * 1024;

function send(res: ServerResponse, { status, mediaType, text }: WitnessAnswer, headers = {}): void {
  res.writeHead(status, { 'Content-Type': mediaType, 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

const plain = (status: number, text: string): WitnessAnswer => ({
  status,
  mediaType: 'text/plain; charset=utf-8',
  text: `${text}\n`,
});

/** The body as UTF-8 text, or an answer (413 past the limit, 400 when it is not UTF-8). */
async function readBody(req: IncomingMessage): Promise<string | WitnessAnswer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > BODY_LIMIT_BYTES) return plain(413, `the request is larger than ${BODY_LIMIT_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    return plain(400, 'malformed request: the body is not UTF-8');
  }
}

/**
 * The witness's HTTP interface (c2sp.org/tlog-witness): `POST /add-checkpoint`, nothing else. Each
 * request is logged with its answer's status; a refusal that may be a log's misbehaviour is logged
 * as a warning (its evidence is on disk).
 */
export function witnessHandler(witness: Witness, logger: Logger): RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/add-checkpoint')
      return send(res, plain(404, `no such endpoint: ${path}; POST /add-checkpoint`));
    if (req.method !== 'POST') return send(res, plain(405, 'use POST'), { Allow: 'POST' });
    void readBody(req)
      .then((body) => {
        const answer = typeof body === 'string' ? addCheckpoint(witness, body) : body;
        const level = answer.status === 409 || answer.status === 422 ? 'warn' : 'info';
        logger[level](
          { status: answer.status, answer: answer.status === 200 ? undefined : answer.text.trim() },
          'add-checkpoint',
        );
        send(res, answer);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'add-checkpoint failed');
        if (!res.headersSent) send(res, plain(500, 'the witness failed; nothing was cosigned'));
      });
  };
}
