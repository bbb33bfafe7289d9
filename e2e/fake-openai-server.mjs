// A local stand-in for an OpenAI-compatible Chat Completions server, for the demo's e2e tests.
// It speaks the real wire format: `POST /v1/chat/completions`, JSON answers, and with
// `"stream": true` Server-Sent Events (`data: {chunk}` lines, then `data: [DONE]`). CORS is open
// so the demo page (another origin) can call it.
//
// Like the demo's offline model it reads what to do from the prompt: the planner's `Task:` line,
// the per-turn todo lines and `Earlier:` memory in the `<plan>` block, the edit's document markers.
// A task containing "hostile" gets answers carrying HTML and script, to check the demo renders
// model text as text.
//
// Extra routes for tests: GET /health, GET /__requests (what was received: model, auth header,
// kind, stream), POST /__reset.
//
// Run: node e2e/fake-openai-server.mjs   (port: FAKE_OPENAI_PORT, default 5199)

import { createServer } from 'node:http';

const PORT = Number(process.env.FAKE_OPENAI_PORT ?? 5199);
const HOST = '127.0.0.1';

export const HOSTILE = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

/** @type {Array<{ model: unknown, authorization: string | undefined, kind: string, stream: boolean, task: string }>} */
let received = [];

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
};

function kindOf(body) {
  const format = body.response_format;
  const props = format?.json_schema?.schema?.properties ?? {};
  if ('task_summary' in props) return 'plan';
  if ('turn_planning' in props) return 'turn';
  if ('content' in props) return 'edit';
  const text = (body.messages ?? []).map((m) => String(m.content)).join('\n');
  if (/^<plan>$/m.test(text)) return 'turn';
  if (text.includes('--- document start ---')) return 'edit';
  return 'plan';
}

const lastUser = (body) => [...(body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? '';
const taskOf = (prompt) => /^Task:[ \t]*(.*)$/m.exec(prompt)?.[1]?.trim() ?? '';

function planFor(task) {
  if (/hostile/i.test(task)) {
    return {
      task_summary: `Showing you ${HOSTILE}`,
      todos: [
        { intent: 'narrate', description: `Say ${HOSTILE}`, expected_turn: 1 },
        { intent: 'finish', description: 'Wrap up', expected_turn: 2 },
      ],
    };
  }
  return {
    task_summary: 'Remote model: a short look at the Team plan.',
    todos: [
      { intent: 'navigate', description: 'Open the pricing page (/commercial)', expected_turn: 1 },
      { intent: 'narrate', description: 'Point at the Team plan', expected_turn: 2 },
      { intent: 'finish', description: 'Wrap up', expected_turn: 3 },
    ],
  };
}

function turnFor(prompt) {
  const lines = prompt.split('\n');
  const start = lines.indexOf('<plan>');
  const todos = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^(t\d+) (?:(\S+): )?(.*?)(?: \(turn \d+\))?$/.exec(line.trim());
    if (!match) break;
    // The prompt names only a host's own intents; the planner's are read from the words, as a model would.
    const intent = match[2] ?? (/\(\/[a-z0-9-]*\)/.test(match[3]) ? 'navigate' : /^wrap up/i.test(match[3]) ? 'finish' : 'narrate');
    todos.push({ id: match[1], intent, description: match[3] });
  }
  const earlier = new Set((/^Earlier:(.*)$/m.exec(prompt)?.[1] ?? '').match(/\bt\d+\b/g) ?? []);
  const remove = todos.filter((t) => earlier.has(t.id)).map((t) => t.id);
  const rest = todos.filter((t) => !earlier.has(t.id));
  const next = rest[0];
  if (!next) {
    return { turn_planning: { does: 'Finish', is_last_turn: true }, todo_adjust: { remove }, actions: [{ type: 'task_finish', summary: 'Done.' }] };
  }
  const hostile = /hostile/i.test(taskOf(prompt));
  let actions;
  if (next.intent === 'navigate') actions = [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }];
  else if (next.intent === 'finish') {
    actions = [
      { type: 'narrate', text: hostile ? `Bye ${HOSTILE}` : 'That was the remote model.' },
      { type: 'task_finish', summary: hostile ? `Finished ${HOSTILE}` : 'Showed the Team plan.' },
    ];
  } else if (hostile) actions = [{ type: 'narrate', text: `Look: ${HOSTILE}` }];
  else actions = [{ type: 'narrate', text: 'The remote model says: Team is the one to try.', target: '#tier-team' }];
  const last = rest.length === 1;
  return { turn_planning: { todo_id: next.id, does: next.description, is_last_turn: last }, todo_adjust: { remove }, actions };
}

function editFor(prompt) {
  const start = prompt.indexOf('--- document start ---\n');
  const end = prompt.lastIndexOf('\n--- document end ---');
  const content = start >= 0 && end >= start ? prompt.slice(start + 23, end) : '';
  return { content: `${content.toUpperCase()}\n\n(rewritten by the remote model)` };
}

function completionText(body, authorization) {
  const prompt = lastUser(body);
  const kind = kindOf(body);
  received.push({ model: body.model, authorization, kind, stream: Boolean(body.stream), task: taskOf(prompt) });
  if (kind === 'plan') return JSON.stringify(planFor(taskOf(prompt)));
  if (kind === 'turn') return JSON.stringify(turnFor(prompt));
  return JSON.stringify(editFor(prompt));
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    let data = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (data += chunk));
    request.on('end', () => resolve(data));
    request.on('error', reject);
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', `http://${HOST}`);
  if (request.method === 'OPTIONS') {
    response.writeHead(204, cors).end();
    return;
  }
  if (request.method === 'GET' && url.pathname === '/health') {
    response.writeHead(200, { ...cors, 'content-type': 'text/plain' }).end('ok');
    return;
  }
  if (request.method === 'GET' && url.pathname === '/__requests') {
    response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify(received));
    return;
  }
  if (request.method === 'POST' && url.pathname === '/__reset') {
    received = [];
    response.writeHead(204, cors).end();
    return;
  }
  if (request.method !== 'POST' || !url.pathname.endsWith('/chat/completions')) {
    response
      .writeHead(404, { ...cors, 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `No route ${request.method} ${url.pathname}` } }));
    return;
  }
  let body;
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    response.writeHead(400, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Body is not JSON' } }));
    return;
  }
  const text = completionText(body, request.headers.authorization);
  const id = `chatcmpl-${received.length}`;
  const created = Math.floor(Date.now() / 1000);
  const usage = { prompt_tokens: JSON.stringify(body.messages ?? []).length >> 2, completion_tokens: text.length >> 2 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;

  if (!body.stream) {
    response.writeHead(200, { ...cors, 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (payload) => response.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (delta, finish = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  send(chunk({ role: 'assistant', content: '' }));
  for (let i = 0; i < text.length; i += 24) {
    send(chunk({ content: text.slice(i, i + 24) }));
    await sleep(3);
  }
  send(chunk({}, 'stop'));
  if (body.stream_options?.include_usage) send({ id, object: 'chat.completion.chunk', created, model: body.model, choices: [], usage });
  response.write('data: [DONE]\n\n');
  response.end();
});

server.listen(PORT, HOST, () => {
  console.log(`fake OpenAI-compatible server on http://${HOST}:${PORT}/v1`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
