import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server received, body included. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, or `undefined` when it is not JSON. */
  json: unknown;
}

/** Answers one request; may be async and may keep the response open. */
export type TestHandler = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops the server, cutting any connection still open. */
  close(): Promise<void>;
}

/**
 * Starts a node HTTP server on 127.0.0.1 (a free port) that records each request and hands it to
 * `handler`. A handler that throws answers 500 with the error message.
 *
 * @example
 * ```ts
 * const server = await startServer((req, res) => res.end(JSON.stringify({ ok: true })));
 * await fetch(`${server.url}/x`, { method: 'POST', body: '{}' });
 * server.requests[0]?.json; // {}
 * await server.close();
 * ```
 */
export async function startServer(handler: TestHandler): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body, json };
      requests.push(recorded);
      Promise.resolve()
        .then(() => handler(recorded, res))
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(error));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Options of {@link writeSSE}. */
export interface WriteSSEOptions {
  /** Wait between pieces so they leave as separate TCP writes. Default 0 (next tick). */
  delayMs?: number;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** Leave the response open after the last piece (to test aborts). Default false. */
  keepOpen?: boolean;
}

/**
 * Writes an event-stream response piece by piece: each piece (text or raw bytes, possibly cut
 * mid-line or mid-character) is written and flushed on its own.
 *
 * @example
 * ```ts
 * await writeSSE(res, ['data: {"a":', '1}\n\n', 'data: [DONE]\n\n']);
 * ```
 */
export async function writeSSE(response: ServerResponse, pieces: Array<string | Uint8Array>, options: WriteSSEOptions = {}): Promise<void> {
  response.writeHead(options.status ?? 200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...options.headers,
  });
  response.flushHeaders();
  for (const piece of pieces) {
    if (response.destroyed) return;
    response.write(piece);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0));
  }
  if (!options.keepOpen) response.end();
}

/**
 * One SSE event as text: `event:` when named, `data:` with the JSON (or the string as is), then a blank line.
 *
 * @example
 * ```ts
 * sseEvent({ type: 'ping' }, 'ping'); // 'event: ping\ndata: {"type":"ping"}\n\n'
 * ```
 */
export function sseEvent(data: unknown, event?: string): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return `${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`;
}

/**
 * Answers with a JSON body.
 *
 * @example
 * ```ts
 * sendJSON(res, 429, { error: { message: 'slow down' } }, { 'retry-after': '1' });
 * ```
 */
export function sendJSON(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * A `fetch` stand-in whose response body arrives in exactly the given byte pieces: for tests of
 * chunk boundaries that TCP would otherwise merge.
 *
 * @example
 * ```ts
 * const fetch = chunkedFetch([bytes.slice(0, 7), bytes.slice(7)]);
 * ```
 */
export function chunkedFetch(pieces: Uint8Array[], init: ResponseInit = { status: 200, headers: { 'content-type': 'text/event-stream' } }) {
  return async (_url: string, _init: RequestInit): Promise<Response> => {
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = pieces[index++];
        if (piece) controller.enqueue(piece);
        else controller.close();
      },
    });
    return new Response(body, init);
  };
}
