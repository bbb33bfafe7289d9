// planloop in one module: a plan, a model, a few turns of runWebAgent on this page, <plan-panel>.
// The model: an OpenAI-compatible endpoint from ?baseURL=…&model=… (Ollama, llama.cpp, vLLM), else
// a scripted one that plays this page's tour, so the example runs offline and without a key.
import { Plan, createOpenAICompatibleProvider, runWebAgent, type LLMProvider } from 'planloop';
import { outlinePage, renderOutline } from 'planloop/dom';
import { createScriptedProvider } from 'planloop/testing';
import { definePlanPanel } from 'planloop/ui';

const query = new URLSearchParams(location.search);
const baseURL = query.get('baseURL');
const model = query.get('model');
const llm: LLMProvider =
  baseURL && model
    ? createOpenAICompatibleProvider({ baseURL, model, ...(query.get('key') ? { apiKey: query.get('key')! } : {}) })
    : createScriptedProvider(
        [
          // The planning call, then one envelope per turn: what a model answers, as JSON.
          {
            task_summary: 'A short tour: the features, then the prices.',
            todos: [
              { intent: 'narrate', description: 'Introduce the features' },
              { intent: 'narrate', description: 'Point out the prices' },
              { intent: 'finish', description: 'Wrap up' },
            ],
          },
          { todo: 't1', actions: [{ type: 'narrate', text: 'Orbitly shares calendars, rotations and reminders.' }] },
          { todo: 't2', actions: [{ type: 'narrate', text: 'Starter is free; Team is $12 per member.' }] },
          { todo: 't3', last: true, actions: [{ type: 'task_finish', summary: 'Showed the features and the prices.' }] },
        ],
        { delayMs: 20 },
      );

definePlanPanel();
const panel = document.querySelector('plan-panel')!;
const plan = new Plan({ llm }); // add `storage: createLocalStorageAdapter({ key })` to survive reloads
panel.plan = plan;

const $ = (id: string) => document.getElementById(id)!;
$('start').addEventListener('click', async () => {
  $('start').hidden = true;
  try {
    const result = await runWebAgent({
      plan,
      task: 'Show me around this page',
      start: { announce: () => panel.review() }, // the user may change the plan, then approves it
      page: { observe: ({ maxTokens }) => renderOutline(outlinePage({ maxTokens })) }, // what a turn sees
      user: {
        narrate: (text) => {
          $('say').textContent = text;
          return new Promise((done) => setTimeout(done, 400)); // time to read it
        },
        ask: (question) => prompt(question) ?? '',
      },
    });
    $('status').textContent = `${result.reason}: ${result.summary ?? ''}`;
  } catch (error) {
    $('status').textContent = `Failed: ${(error as Error).message}`;
  } finally {
    $('start').hidden = false;
  }
});
