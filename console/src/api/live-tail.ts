import { request } from './client';

/** One server-sent event: `id` is the log position, `event` the event type, `data` the envelope. */
export interface ServerSentEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Splits one SSE message block into its fields; comments (`: keep-alive`) give none. */
function parseBlock(block: string): ServerSentEvent | undefined {
  let id: string | undefined;
  let event: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length === 0 ? undefined : { id, event, data: data.join('\n') };
}

/**
 * Follows a server-sent events stream that needs a bearer credential (an `EventSource` cannot send
 * one): reads it with fetch until `signal` aborts it or the server ends it.
 */
export async function followStream(
  url: string,
  token: string,
  onEvent: (event: ServerSentEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await request(url, { token, signal, headers: { Accept: 'text/event-stream' } });
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value.replace(/\r\n?/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end !== -1) {
      const parsed = parseBlock(buffered.slice(0, end));
      if (parsed) onEvent(parsed);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
    }
  }
}
