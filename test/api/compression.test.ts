import { createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressing } from '../../src/api/kit/compression';
import { serveMetrics } from '../../src/api/kit/metrics-port';
import { portSecurity } from '../../src/api/kit/port-guard';
import { openSse } from '../../src/api/kit/sse';
import { loadConfig } from '../../src/config';
import { openEsm, type EsmHarness } from '../support/esm-harness';
import { auth } from './spec';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const servers: Server[] = [];

async function listening(handler: RequestListener): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The answer's bytes as they came over the wire, not decoded. */
function fetchRaw(port: number, path: string, headers: Record<string, string>, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

let h: EsmHarness;
let port: number;
beforeAll(async () => {
  h = await openEsm();
  port = await listening(h.app);
});
afterAll(async () => {
  for (const server of servers) server.close();
  await h.close();
});

describe('compression', () => {
  const DESCRIPTIONS = '/api/openapi.json';

  it('sends gzip and brotli as Accept-Encoding asks, each decoding to the same JSON', async () => {
    const plain = await fetchRaw(port, DESCRIPTIONS, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const gzip = await fetchRaw(port, DESCRIPTIONS, { 'Accept-Encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/Accept-Encoding/);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 4);
    const br = await fetchRaw(port, DESCRIPTIONS, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');

    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gzip.headers.etag).toBe(plain.headers.etag);
  });

  it('prefers brotli when both are accepted, and sends answers under 1 kB as they are', async () => {
    const large = await fetchRaw(port, DESCRIPTIONS, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(large.headers['content-encoding']).toBe('br');
    const record = await fetchRaw(port, '/api/v1/services/1', { ...auth, 'Accept-Encoding': 'gzip, br' });
    expect(record.body.length).toBeLessThan(1024);
    expect(record.headers['content-encoding']).toBeUndefined();
    expect(Number(record.headers['content-length'])).toBe(record.body.length);
  });

  it("keeps a HEAD answer's Content-Length: the length of the body a GET sends as it is", async () => {
    const plain = await fetchRaw(port, DESCRIPTIONS, {});
    const head = await fetchRaw(port, DESCRIPTIONS, { 'Accept-Encoding': 'gzip, br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-encoding']).toBeUndefined();
    expect(Number(head.headers['content-length'])).toBe(plain.body.length);
  });

  it('answers a matching If-None-Match 304 without a body, whatever the encoding', async () => {
    const { headers } = await fetchRaw(port, DESCRIPTIONS, { 'Accept-Encoding': 'gzip' });
    const again = await fetchRaw(port, DESCRIPTIONS, {
      'Accept-Encoding': 'gzip',
      'If-None-Match': headers.etag as string,
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('streams server-sent events as they are sent to a client that accepts gzip', async () => {
    let received!: () => void;
    const firstReceived = new Promise<void>((resolve) => (received = resolve));
    const streaming = await listening(
      compressing((_req, res) => {
        const stream = openSse(res);
        stream.send('first', { note: 'x'.repeat(2000) });
        // The stream ends only once the client has read the first event: held back, it never would.
        void firstReceived.then(() => stream.end());
      }),
    );
    const answer = await new Promise<{ headers: Record<string, unknown>; first: string }>(
      (resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port: streaming, path: '/', headers: { 'Accept-Encoding': 'gzip' } },
          (res) => {
            res.once('data', (chunk: Buffer) => {
              resolve({ headers: res.headers, first: chunk.toString() });
              received();
              res.resume();
            });
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.first).toMatch(/^event: first\ndata: /);
  });
});

describe('the metrics port', () => {
  it('compresses its text as the client accepts', async () => {
    const security = portSecurity(loadConfig({}), 'api');
    const server = await serveMetrics(h.suite.metrics, h.suite.readiness, {
      port: 0,
      host: '127.0.0.1',
      role: 'api',
      security,
    });
    servers.push(server);
    const metrics = (server.address() as AddressInfo).port;
    const plain = await fetchRaw(metrics, '/metrics', { Host: 'localhost' });
    const gzip = await fetchRaw(metrics, '/metrics', { Host: 'localhost', 'Accept-Encoding': 'gzip' });
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toMatch(/^# HELP /);
  });
});
