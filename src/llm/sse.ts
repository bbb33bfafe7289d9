/** One server-sent event: its `event` name (`message` when the server gave none) and its data. */
export interface SSEEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Parses a byte stream of server-sent events (the `text/event-stream` format).
 *
 * Follows the WHATWG rules: lines end with CRLF, LF or CR; `:` lines are comments (keep-alives);
 * several `data:` lines join with `\n`; a blank line dispatches the event. Bytes may be split
 * anywhere, inside a line or a UTF-8 character. At the end of the stream, a final event whose
 * lines were complete but lacked the closing blank line is still dispatched (some servers omit
 * it); an unterminated last line is dropped, as it is a cut-off fragment.
 *
 * @example
 * ```ts
 * declare const body: AsyncIterable<Uint8Array>; // a response's bytes (readStream(response.body))
 * for await (const { event, data } of parseSSE(body)) console.log(event, data);
 * ```
 */
export async function* parseSSE(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<SSEEvent, void, undefined> {
  const decoder = new TextDecoder(); // `stream: true` below keeps a split UTF-8 character for the next chunk
  const lineEnd = /\r\n|\r|\n/g;
  let buffer = '';
  let data: string[] = [];
  let event = '';
  let id: string | undefined;

  function* take(final: boolean): Generator<SSEEvent> {
    let start = 0;
    lineEnd.lastIndex = 0;
    for (let match = lineEnd.exec(buffer); match; match = lineEnd.exec(buffer)) {
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (match[0] === '\r' && match.index === buffer.length - 1 && !final) break;
      const line = buffer.slice(start, match.index);
      start = lineEnd.lastIndex;
      if (line === '') {
        if (data.length > 0) yield dispatch();
        else event = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
    }
    buffer = buffer.slice(start);
  }

  function dispatch(): SSEEvent {
    const out: SSEEvent = { event: event || 'message', data: data.join('\n') };
    if (id !== undefined) out.id = id;
    data = [];
    event = '';
    return out;
  }

  for await (const chunk of bytes) {
    buffer += decoder.decode(chunk, { stream: true });
    yield* take(false);
  }
  buffer += decoder.decode();
  yield* take(true);
  if (data.length > 0) yield dispatch();
}
