import { describe, expect, it } from 'vitest';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import { redactHostSecrets } from '../../src/loop/redact-prompt.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { turnUserPrompt } from '../../src/loop/turn-prompt.js';
import { Plan } from '../../src/plan.js';

// Issue 31 part 2, the loop's side: the host's secrets and values that look secret never reach the model.

describe('redactHostSecrets', () => {
  it('replaces every occurrence of a host secret in every message: any case, URL-encoded, with invisible characters between its letters', () => {
    const messages = [
      { role: 'system' as const, content: 'Tools: fill' },
      {
        role: 'user' as const,
        content: 'Page: Welcome back! Your password is Hunter2 Horse!, typed: hunter2 horse, URL /x?p=hunter2%20horse, spaced h\u200bunter2 horse',
      },
    ];
    const out = redactHostSecrets(messages, { password: 'hunter2 horse' });
    expect(out[1]?.content).toBe('Page: Welcome back! Your password is [secret]!, typed: [secret], URL /x?p=[secret], spaced [secret]');
    expect(out[0]).toEqual(messages[0]);
    expect(redactHostSecrets(messages, ['hunter2 horse'])[1]?.content).not.toContain('horse');
    expect(redactHostSecrets(messages, () => ['hunter2 horse'])[1]?.content).not.toContain('horse');
    // No secrets, or values too short to look for: the messages as they are.
    expect(redactHostSecrets(messages, undefined)).toBe(messages);
    expect(redactHostSecrets(messages, { pin: 'a' })[1]?.content).toBe(messages[1]?.content);
  });
});

describe('the turn prompt', () => {
  it("redacts tokens in the page's own URL (query and hash) and values that look secret in what the page and the tools said", () => {
    const prompt = turnUserPrompt({
      task: 'Finish signing in',
      todos: [{ id: 't1', intent: 'click', description: 'Sign in', status: 'pending' } as never],
      turn: 1,
      maxTurns: 3,
      url: '/callback?code=4f8a0c2d&lang=de#access_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig&state=xyz',
      observations: [{ kind: 'tool', summary: 'lookup: {"iban":"DE89 3704 0044 0532 0130 00","key":"sk-live-4eC39HqLyjWDarjtT1zdp7dc"}' } as never],
      page: '[e1] text "Your verification code is 482913"',
    });
    for (const secret of ['4f8a0c2d', 'eyJhbGci', 'xyz', 'DE89', 'sk-live', '482913']) expect(prompt).not.toContain(secret);
    expect(prompt).toContain('URL: /callback?code=…&lang=de#access_token=…&state=…');
    expect(prompt).toContain('[secret]');
  });
});

describe('a run with page.secrets', () => {
  it('a page that echoes the password fill typed never shows it to the model, in the page, a tool result or the URL', async () => {
    const planner = createScriptedProvider([
      {
        task_summary: 'Sign in',
        todos: [
          { intent: 'click', description: 'Sign in', expected_turn: 1 },
          { intent: 'finish', description: 'Done', expected_turn: 2 },
        ],
      },
    ]);
    const model = createScriptedProvider([
      { todo: 't1', actions: [{ type: 'tool', name: 'fill', args: { value: '{{secret:password}}' } }] },
      { todo: 't2', last: true, actions: [{ type: 'task_finish', summary: 'Signed in.' }] },
    ]);
    const plan = new Plan({ llm: createLLMRouter({ default: model, plan: planner }) });
    const secrets = { password: 'Correct-Horse-77' };
    let typed = '';
    await runWebAgent({
      plan,
      task: 'Sign in',
      tools: { fill: { risk: 'read', run: () => ((typed = secrets.password), `typed ${secrets.password}`) } },
      page: {
        secrets,
        observe: () => (typed ? `[e1] status "Your password correct-horse-77 was saved"` : '[e1] textbox "Password" secret'),
        url: () => (typed ? `/done?echo=${encodeURIComponent(secrets.password)}` : '/login'),
      },
    });
    const seen = model.calls.flatMap((call) => call.messages.map((message) => message.content)).join('\n');
    expect(model.calls.length).toBe(2);
    expect(seen.toLowerCase()).not.toContain('correct-horse-77');
    expect(seen).toContain('[secret]');
  });
});
