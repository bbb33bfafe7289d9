// The in-page guide: planloop's reference loop (runWebAgent) wired to the Orbitly site. It plans a
// tour for the user's ask (in the user's language), streams the summary into the plan panel, lets
// the user change the plan there and waits for their go (Start, or Space; Cancel or Escape
// declines), then narrates, navigates, clicks and fills, with a Stop button that aborts at any
// time. A tour interrupted by a reload resumes from the stored plan without planning again.

import { runWebAgent, type LoopToolContext, type Plan, type RunResult } from 'planloop';
import type { PlanPanelElement } from 'planloop/ui';
import { languageOf } from './language.js';
import type { Narrator } from './narrator.js';
import { SITE_PAGES } from './site.js';
import { SITE_TOOL_DESCRIPTIONS, type SiteTool } from './site-tools.js';

/**
 * What the demo remembers about the current tour, beside the plan (which holds its summary): the
 * task and status, for resuming after a reload.
 */
export interface TourRecord {
  task: string;
  status: 'planning' | 'announcing' | 'running' | 'stopped' | 'failed' | 'finished';
}

const RECORD_KEY = 'planloop-demo:tour';

export function loadTourRecord(): TourRecord | null {
  try {
    const record = JSON.parse(localStorage.getItem(RECORD_KEY) ?? 'null') as TourRecord | null;
    return record && typeof record.task === 'string' ? record : null;
  } catch {
    return null;
  }
}

function saveTourRecord(record: TourRecord | null): void {
  if (record) localStorage.setItem(RECORD_KEY, JSON.stringify(record));
  else localStorage.removeItem(RECORD_KEY);
}

/** The guide's elements (all in index.html). */
interface GuideElements {
  askForm: HTMLFormElement;
  askInput: HTMLInputElement;
  chips: HTMLButtonElement[];
  question: HTMLFormElement;
  questionText: HTMLElement;
  questionInput: HTMLInputElement;
  stop: HTMLButtonElement;
  resume: HTMLButtonElement;
  clear: HTMLButtonElement;
  status: HTMLElement;
}

export interface Guide {
  /** Plans and runs a tour for `task`. */
  ask(task: string): Promise<void>;
  /** Continues the stored plan without planning again. */
  resume(): Promise<void>;
  /** Aborts the running tour; resolves once it has wound down (at once when none runs). */
  stop(): Promise<void>;
  readonly running: boolean;
  /** Re-reads the plan (after a storage switch or a reload) and offers or starts the resume. */
  refresh(options?: { autoResume?: boolean }): void;
}

export function createGuide(options: {
  root: HTMLElement;
  plan: () => Plan;
  /** Shows the plan; the user reviews and approves it there. */
  panel: PlanPanelElement;
  narrator: Narrator;
  tools: Record<string, SiteTool>;
  /** What the page shows now, for each turn's prompt (the page outline, within `maxTokens`). */
  observe: (maxTokens: number) => string;
  /** Whether the user's main pointer is a finger: then the guide speaks of taps, not keys. */
  touch: () => boolean;
  /** The language to plan in when the ask does not show one (the browser's). */
  fallbackLanguage: () => string;
  onRunChange?: (state: 'idle' | 'planning' | 'announcing' | 'running') => void;
}): Guide {
  const { panel } = options;
  const $ = <T extends HTMLElement>(selector: string): T => options.root.querySelector(selector) as T;
  const el: GuideElements = {
    askForm: $('#ask-form'),
    askInput: $('#ask-input'),
    chips: Array.from(options.root.querySelectorAll<HTMLButtonElement>('.chip')),
    question: $('#ask-question'),
    questionText: $('#ask-question-text'),
    questionInput: $('#ask-question-input'),
    stop: $('#tour-stop'),
    resume: $('#tour-resume'),
    clear: $('#tour-clear'),
    status: $('#run-status'),
  };
  let controller: AbortController | null = null;
  let current: Promise<void> = Promise.resolve();
  let record = loadTourRecord();
  let state: 'idle' | 'planning' | 'announcing' | 'running' = 'idle';

  // Escape stops a tour that is being planned or run, as the Stop button does (at the
  // announcement it declines, see confirmStart), unless it is meant for a dialog.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || inDialog(event.target)) return;
    if (state !== 'planning' && state !== 'running') return;
    event.preventDefault();
    void guide.stop();
  });

  const setState = (next: 'idle' | 'planning' | 'announcing' | 'running'): void => {
    // A control that hides or turns disabled under the focus drops it to <body>: when the guide
    // goes idle, a keyboard user lands on the ask box instead.
    const focusLost = (): boolean => {
      const active = document.activeElement as HTMLElement | null;
      return !active || active === document.body || (options.root.contains(active) && (active.matches(':disabled') || active.offsetParent === null));
    };
    const ending = next === 'idle' && state !== 'idle';
    state = next;
    const busy = state !== 'idle';
    el.askInput.disabled = busy;
    // The ask stays in view (disabled) while it is worked on; its button goes until it applies again.
    const askButton = el.askForm.querySelector('button') as HTMLButtonElement;
    askButton.disabled = busy;
    askButton.hidden = busy;
    for (const chip of el.chips) chip.disabled = busy;
    (el.chips[0]?.parentElement as HTMLElement).hidden = busy;
    // At the announcement the panel's Cancel declines: a Stop beside it would be a second way to say the same.
    el.stop.hidden = state !== 'planning' && state !== 'running';
    document.body.dataset.tour = state;
    const remaining = options.plan().todos.remaining().length;
    el.resume.hidden = busy || remaining === 0;
    el.clear.hidden = busy || options.plan().todos.list().length === 0;
    if (ending && focusLost()) el.askInput.focus();
    options.onRunChange?.(state);
  };

  const updateRecord = (patch: Partial<TourRecord>): void => {
    if (!record) return;
    record = { ...record, ...patch };
    saveTourRecord(record);
  };

  const tools = Object.fromEntries(
    Object.entries(options.tools).map(([name, tool]) => [
      name,
      {
        description: SITE_TOOL_DESCRIPTIONS[name as keyof typeof SITE_TOOL_DESCRIPTIONS],
        run: (args: Record<string, unknown>, context: LoopToolContext) => tool(args, context),
      },
    ]),
  );

  /**
   * Opens the plan for review in the panel and resolves with the user's choice: the panel's Start
   * and Cancel buttons, or Space and Escape anywhere but on a control, a field, a dialog or the
   * panel itself (the panel has keys of its own while the user changes the plan).
   */
  const confirmStart = async (signal: AbortSignal): Promise<boolean> => {
    const onKey = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || inDialog(event.target) || event.composedPath().includes(panel)) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        panel.decline();
      } else if (event.key === ' ' && !isTyping(event.target) && !isControl(event.target)) {
        event.preventDefault();
        panel.approve();
      }
    };
    document.addEventListener('keydown', onKey, true);
    try {
      return await panel.review({ signal });
    } finally {
      document.removeEventListener('keydown', onKey, true);
    }
  };

  /** Shows the model's question and resolves with the user's answer. */
  const askUser = (question: string, signal: AbortSignal | undefined): Promise<string> =>
    new Promise((resolve, reject) => {
      el.questionText.textContent = question;
      el.questionInput.value = '';
      el.question.hidden = false;
      el.questionInput.focus();
      const onSubmit = (event: SubmitEvent): void => {
        event.preventDefault();
        cleanup();
        resolve(el.questionInput.value.trim() || '(no answer)');
      };
      const onAbort = (): void => {
        cleanup();
        reject(signal?.reason);
      };
      const cleanup = (): void => {
        el.question.hidden = true;
        el.question.removeEventListener('submit', onSubmit);
        signal?.removeEventListener('abort', onAbort);
      };
      el.question.addEventListener('submit', onSubmit);
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  /** How the user ends a tour, in the words for their keyboard or their finger. */
  const stopHint = (): string => (options.touch() ? 'Stop ends it.' : 'Esc or Stop ends it.');

  const run = async (task: string, resuming: boolean): Promise<void> => {
    if (controller) return;
    controller = new AbortController();
    const { signal } = controller;
    const plan = options.plan();
    el.status.textContent = resuming ? `Resuming the tour where it stopped… ${stopHint()}` : 'Planning the tour…';
    setState(resuming ? 'running' : 'planning');
    // Until the new plan is made, the plan still holds the earlier tour's todos: the new ask is
    // stored only once its plan exists, and a planning call that fails or is stopped leaves the
    // earlier tour's record (and so what Continue resumes) as it was.
    const earlier = record;
    let planned = resuming;
    if (!resuming) record = { task, status: 'planning' };
    else updateRecord({ status: 'running' });
    const offCreate = plan.on('plan-create', () => {
      planned = true;
      saveTourRecord(record);
    });
    // A narration stays up until the guide does something else.
    const offAction = plan.on('action', ({ action }) => {
      if (action.type !== 'narrate') options.narrator.clear();
    });
    let result: RunResult | undefined;
    try {
      result = await runWebAgent({
        plan,
        task,
        // The user's language: the ask's own, else the browser's.
        planInput: { task, sitemap: SITE_PAGES, locale: languageOf(task) ?? options.fallbackLanguage() },
        // A new ask plans afresh even if a finished tour left todos undone; only Continue resumes.
        resume: resuming,
        tools,
        signal,
        // Each turn sees the page as it is: the model picks its targets from this outline's refs.
        observe: ({ maxTokens }) => options.observe(maxTokens),
        onNarrate: (text, target, context) => options.narrator.say(text, target, context.signal).then(() => undefined),
        onAsk: (question, context) => askUser(question, context.signal),
        announcePlan: async () => {
          updateRecord({ status: 'announcing' });
          setState('announcing');
          el.status.textContent = options.touch() ? 'The plan is ready: tap Start the tour to begin.' : 'The plan is ready: press Space or Start the tour to begin, Esc to cancel.';
          const go = await confirmStart(signal);
          if (go) {
            updateRecord({ status: 'running' });
            setState('running');
            el.status.textContent = `Touring… ${stopHint()}`;
          }
          return go;
        },
      });
      if (result.reason === 'declined') {
        el.status.textContent = 'Tour cancelled. Ask again whenever you like.';
        record = null;
        saveTourRecord(null);
      } else if (result.reason === 'turn_limit') {
        el.status.textContent = 'The guide ran out of turns before finishing.';
        updateRecord({ status: 'failed' });
      } else {
        el.status.textContent = result.summary ? `Tour finished: ${result.summary}` : 'Tour finished.';
        updateRecord({ status: 'finished' });
      }
    } catch (error) {
      const aborted = (error as { code?: string }).code === 'aborted';
      const message = (error as Error).message;
      // A failure before the plan was made is a failed ask, not a failed tour: nothing toured.
      el.status.textContent = aborted ? 'Tour stopped.' : planned ? `The tour failed: ${message}` : `Could not plan a tour: ${message}`;
      if (planned) updateRecord({ status: aborted ? 'stopped' : 'failed' });
      else record = earlier;
    } finally {
      offCreate();
      offAction();
      options.narrator.clear();
      el.question.hidden = true;
      controller = null;
      setState('idle');
    }
  };

  const start = (task: string, resuming: boolean): Promise<void> => {
    if (controller) return current;
    current = run(task, resuming);
    return current;
  };

  el.askForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const task = el.askInput.value.trim();
    if (task) void guide.ask(task);
  });
  for (const chip of el.chips) {
    chip.addEventListener('click', () => {
      el.askInput.value = chip.textContent ?? '';
      void guide.ask(chip.textContent ?? '');
    });
  }
  el.stop.addEventListener('click', () => void guide.stop());
  el.resume.addEventListener('click', () => void guide.resume());
  el.clear.addEventListener('click', () => {
    options.plan().todos.reset();
    record = null;
    saveTourRecord(null);
    el.status.textContent = 'Plan cleared.';
    setState('idle');
  });

  const guide: Guide = {
    ask: (task) => start(task, false),
    resume: () => start(record?.task ?? 'Continue the tour', true),
    stop() {
      controller?.abort();
      return current;
    },
    get running() {
      return controller !== null;
    },
    refresh(refreshOptions = {}) {
      record = loadTourRecord();
      const plan = options.plan();
      setState('idle');
      if (plan.todos.remaining().length === 0) return;
      if (refreshOptions.autoResume && record?.status === 'running') void guide.resume();
      else el.status.textContent = 'A tour was left unfinished. Continue it, or ask for something else.';
    },
  };
  return guide;
}

/** Whether a key event comes from inside an open <dialog> (the settings): its keys are its own. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog[open]') !== null;
}

/** Whether `target` is a control that Space activates itself (a button, link, tab...). */
function isControl(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('button, a[href], summary, [role="button"], [role="tab"], [role="link"], [role="checkbox"], [role="radio"]') !== null;
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}
