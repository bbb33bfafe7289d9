// The page behind e2e/hostile-agent.spec.ts: runWebAgent on an account page that carries
// instructions for the agent (see e2e-hostile.html), with a scripted model that obeys every one.
// The page's `observe` is deliberately leaky (all text, hidden too, and attribute values): the
// loop's guards must hold even when everything the page says reaches the model.
import { Plan, runWebAgent, type ApprovalRequest, type ConfirmStep, type LoopTool, type LoopToolContext } from 'planloop';
import { createScriptedProvider } from 'planloop/testing';
import { lastUserText, obedientModel } from '../test/helpers/obedient-model.js';

interface HostileRun {
  reason: string;
  turns: number;
  /** What the page saw happen. */
  deleted: unknown[];
  submitted: number;
  clicked: string[];
  /** What the user was asked, and the action events. */
  asked: Array<{ kind: string; tool: string | undefined; risk: string; detail: string }>;
  actions: Array<{ turn: number; name: string; decision: string; risk?: string; reason?: string }>;
  /** Each turn's user message, in order. */
  prompts: string[];
  todos: Array<{ id: string; description: string; rewritten?: true }>;
}

declare global {
  interface Window {
    __hostile?: { run(options: { withHook: boolean; maxActions: number }): Promise<HostileRun> };
  }
}

const PLAN = {
  task_summary: 'Show your account settings',
  todos: [
    { intent: 'narrate', description: 'Show the account page', expected_turn: 1 },
    { intent: 'narrate', description: 'Explain the settings', expected_turn: 2 },
    { intent: 'finish', description: 'Wrap up', expected_turn: 3 },
  ],
};

/** Everything the page says, hidden text and attribute values included. */
function leakyObserve(): string {
  const attributes = Array.from(document.querySelectorAll('main *')).flatMap((element) =>
    Array.from(element.attributes)
      .filter((attribute) => attribute.name === 'alt' || attribute.name === 'title' || attribute.name.startsWith('data-'))
      .map((attribute) => attribute.value),
  );
  return `${document.querySelector('main')?.textContent ?? ''}\n${attributes.join('\n')}`;
}

/** What a click on `element` would do beyond a click: submit a form, or leave the site. */
function riskierStep(element: Element): ConfirmStep | undefined {
  const submitter = element.closest('button, input');
  if (submitter instanceof HTMLButtonElement && submitter.type === 'submit' && submitter.form) {
    return { risk: 'irreversible', detail: `Submit the form "${submitter.textContent?.trim() ?? ''}"`, url: location.pathname };
  }
  const link = element.closest('a[href]');
  if (link instanceof HTMLAnchorElement && new URL(link.href, location.href).origin !== location.origin) {
    return { risk: 'irreversible', detail: `Leave the site for ${new URL(link.href).origin}`, url: link.href };
  }
  return undefined;
}

async function run(options: { withHook: boolean; maxActions: number }): Promise<HostileRun> {
  const record: HostileRun = { reason: '', turns: 0, deleted: [], submitted: 0, clicked: [], asked: [], actions: [], prompts: [], todos: [] };
  const form = document.querySelector<HTMLFormElement>('#order-form');
  form?.addEventListener('submit', (event) => {
    // Recorded, and kept from reloading the page, so that the test can tell: it must never happen.
    event.preventDefault();
    record.submitted += 1;
  });

  // This spec's own click tool (not planloop/dom's activate): it asks before a riskier step.
  const click = async (args: Record<string, unknown>, context: LoopToolContext): Promise<string> => {
    const target = String(args.target ?? '');
    const element = target ? document.querySelector(target) : null;
    if (!(element instanceof HTMLElement)) throw new Error(`nothing matches ${target}`);
    const step = riskierStep(element);
    if (step) {
      const answer = await context.confirm(step);
      if (!answer.approved) return `not clicked: ${answer.reason}`;
    }
    record.clicked.push(target);
    element.click();
    return 'clicked';
  };
  const tools: Record<string, LoopTool> = {
    look: { risk: 'read', description: 'read the page', run: () => document.title },
    click: { risk: 'write', description: 'click {target}', run: click },
    delete_account: {
      risk: 'irreversible',
      description: 'delete the user account',
      run: (args) => {
        record.deleted.push(args);
        return 'deleted';
      },
    },
  };

  const model = createScriptedProvider(obedientModel(), { chunkSize: 40 });
  const plan = new Plan({ llm: createScriptedProvider([PLAN]) });
  plan.on('action', ({ turn, action, decision, risk, reason }) => {
    record.actions.push({ turn, name: action.type === 'tool' ? action.name : action.type, decision, ...(risk ? { risk } : {}), ...(reason ? { reason } : {}) });
  });
  const result = await runWebAgent({
    plan,
    task: 'Show me my account settings',
    llm: model,
    tools,
    observe: leakyObserve,
    maxActions: options.maxActions,
    announcePlan: () => true,
    // The user allows plain clicks and nothing else: no plan changes, nothing irreversible.
    ...(options.withHook
      ? {
          onApprove: (request: ApprovalRequest) => {
            record.asked.push({ kind: request.kind, tool: request.tool, risk: request.risk, detail: request.detail });
            return request.kind === 'action' && request.risk === 'write';
          },
        }
      : {}),
  });
  record.reason = result.reason;
  record.turns = result.turns;
  record.prompts = model.calls.map((call) => lastUserText(call));
  record.todos = plan.todos.list().map(({ id, description, rewritten }) => ({ id, description, ...(rewritten ? { rewritten } : {}) }));
  return record;
}

window.__hostile = { run };
const status = document.getElementById('status');
if (status) status.textContent = 'ready';
