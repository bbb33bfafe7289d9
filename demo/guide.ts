// The in-page guide: planloop's reference loop (runWebAgent) wired to the Orbitly site. It plans a
// tour for the user's ask, streams the summary into the announcement, waits for Space (or Escape /
// Cancel), then narrates, navigates, clicks and fills, with a Stop button that aborts at any time.
// A tour interrupted by a reload resumes from the stored plan without planning again.

import { runWebAgent, type Plan, type RunResult } from 'planloop';
import type { Narrator } from './narrator.js';
import { SITE_PAGES } from './site.js';
import { SITE_TOOL_DESCRIPTIONS, type SiteTool } from './site-tools.js';

/** What the demo remembers about the current tour, beside the plan: its status, for resuming after a reload. */
export interface TourRecord {
  task: string;
  summary: string;
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
  announcement: HTMLElement;
  announcementSummary: HTMLElement;
  confirm: HTMLElement;
  start: HTMLButtonElement;
  cancel: HTMLButtonElement;
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
  narrator: Narrator;
  tools: Record<string, SiteTool>;
  onRunChange?: (state: 'idle' | 'planning' | 'announcing' | 'running') => void;
}): Guide {
  const $ = <T extends HTMLElement>(selector: string): T => options.root.querySelector(selector) as T;
  const el: GuideElements = {
    askForm: $('#ask-form'),
    askInput: $('#ask-input'),
    chips: Array.from(options.root.querySelectorAll<HTMLButtonElement>('.chip')),
    announcement: $('#announcement'),
    announcementSummary: $('#announcement-summary'),
    confirm: $('#announcement-confirm'),
    start: $('#tour-start'),
    cancel: $('#tour-cancel'),
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

  // Escape stops a tour that is being planned or run, as the Stop button does (the announcement
  // has its own keys), unless it is meant for a dialog.
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
    (el.askForm.querySelector('button') as HTMLButtonElement).disabled = busy;
    for (const chip of el.chips) chip.disabled = busy;
    (el.chips[0]?.parentElement as HTMLElement).hidden = busy;
    el.stop.hidden = !busy;
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
        run: (args: Record<string, unknown>, context: { signal: AbortSignal | undefined }) => tool(args, context.signal),
      },
    ]),
  );

  /** Shows "Press Space to start" and resolves with the user's choice. */
  const confirmStart = (signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve, reject) => {
      el.confirm.hidden = false;
      el.start.focus();
      const settle = (go: boolean): void => {
        cleanup();
        resolve(go);
      };
      const onKey = (event: KeyboardEvent): void => {
        // Keys meant for an open dialog (Escape closes the settings) or for a focused control
        // (Space presses Cancel, Stop, a tab...) are theirs: only a free Space starts the tour.
        if (event.defaultPrevented || inDialog(event.target)) return;
        if (event.key === 'Escape') {
          event.preventDefault();
          settle(false);
        } else if (event.key === ' ' && !isTyping(event.target) && !isControl(event.target)) {
          event.preventDefault();
          settle(true);
        }
      };
      const onStart = (): void => settle(true);
      const onCancel = (): void => settle(false);
      const onAbort = (): void => {
        cleanup();
        reject(signal.reason);
      };
      const cleanup = (): void => {
        el.confirm.hidden = true;
        document.removeEventListener('keydown', onKey, true);
        el.start.removeEventListener('click', onStart);
        el.cancel.removeEventListener('click', onCancel);
        signal.removeEventListener('abort', onAbort);
      };
      document.addEventListener('keydown', onKey, true);
      el.start.addEventListener('click', onStart);
      el.cancel.addEventListener('click', onCancel);
      signal.addEventListener('abort', onAbort, { once: true });
    });

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

  const showAnnouncement = (text: string): void => {
    el.announcement.hidden = false;
    el.announcementSummary.textContent = text;
  };

  const run = async (task: string, resuming: boolean): Promise<void> => {
    if (controller) return;
    controller = new AbortController();
    const { signal } = controller;
    const plan = options.plan();
    el.status.textContent = resuming ? 'Resuming the tour where it stopped… Esc or Stop ends it.' : 'Planning the tour…';
    setState(resuming ? 'running' : 'planning');
    // Until the new plan is made, the plan still holds the earlier tour's todos: the new ask is
    // stored only once its plan exists, and a planning call that fails or is stopped leaves the
    // earlier tour's record (and so what Continue resumes) as it was.
    const earlier = record;
    let planned = resuming;
    if (!resuming) {
      record = { task, summary: '', status: 'planning' };
      showAnnouncement('');
    } else {
      el.announcement.hidden = true;
      updateRecord({ status: 'running' });
    }
    const offCreate = plan.on('plan-create', () => {
      planned = true;
      saveTourRecord(record);
    });
    const offSummary = plan.on('summary-delta', ({ text }) => {
      el.announcementSummary.textContent = text;
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
        planInput: { task, sitemap: SITE_PAGES },
        // A new ask plans afresh even if a finished tour left todos undone; only Continue resumes.
        resume: resuming,
        tools,
        signal,
        onNarrate: (text, target, context) => options.narrator.say(text, target, context.signal).then(() => undefined),
        onAsk: (question, context) => askUser(question, context.signal),
        announcePlan: async (summary) => {
          showAnnouncement(summary);
          updateRecord({ summary, status: 'announcing' });
          setState('announcing');
          el.status.textContent = 'The plan is ready.';
          const go = await confirmStart(signal);
          if (go) {
            // The plan panel shows the summary from here on.
            el.announcement.hidden = true;
            updateRecord({ status: 'running' });
            setState('running');
            el.status.textContent = 'Touring… Esc or Stop ends it.';
          }
          return go;
        },
      });
      if (result.reason === 'declined') {
        el.status.textContent = 'Tour cancelled. Ask again whenever you like.';
        el.announcement.hidden = true;
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
      el.status.textContent = aborted ? 'Tour stopped.' : `The tour failed: ${(error as Error).message}`;
      if (planned) updateRecord({ status: aborted ? 'stopped' : 'failed' });
      else record = earlier;
    } finally {
      offCreate();
      offSummary();
      offAction();
      options.narrator.clear();
      el.question.hidden = true;
      // The plan panel keeps the summary; an announcement left up would be empty or stale.
      el.announcement.hidden = true;
      el.confirm.hidden = true;
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
    el.announcement.hidden = true;
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
