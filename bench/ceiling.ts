import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/**
 * The ceiling: a bare node:http server answering every request with the identical response the suite
 * gave for the same URL (its body and headers, X-Request-Id included), from memory.
 * Usage: tsx bench/ceiling.ts <body-file> <port> <x-request-id>
 */
const [bodyFile, port, requestId] = process.argv.slice(2);
const body = readFileSync(bodyFile as string);
createServer((_req, res) => {
  res.writeHead(200, {
    'X-Request-Id': requestId as string,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.send?.('ready'));
