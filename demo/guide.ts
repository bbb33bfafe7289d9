// The in-page guide: planloop's reference loop (startRun) wired to the Orbitly site. It plans a
// tour for the user's ask (in the user's language), streams the summary into the plan panel, lets
// the user change the plan there and waits for their go (Start, or Space; Cancel or Escape
// declines), then narrates, navigates, clicks and fills, with a Stop button that aborts at any
// time. A tour interrupted by a reload resumes from the stored plan without planning again.
//
// Its words (status line, buttons, the panel's strings) follow the tour's language. For keyboard
// and screen-reader users: the focus is never left on <body> (Start hands it to Stop, the
// narration's Next takes it from there, a tool that moved it gives it back), and each event is
// announced once: the run's start and end by the status line, steps by the panel
// (`announce="steps"`), the narration by its own live region.

import {
  isPlanloopError,
  replayTour,
  startRun,
  type LoopToolContext,
  type Plan,
  type ReplayResult,
  type RunOptions,
  type RunResult,
  type Tour,
  type TourLocators,
} from 'planloop';
import { followRuns, type PageChecker } from 'planloop/loop';
import type { PlanPanelElement } from 'planloop/ui';
import { GUIDE_WORDS, guideLanguage, type GuideWords } from './guide-words.js';
import { languageOf, type Lang } from './language.js';
import type { Narrator } from './narrator.js';
import { SITE_PAGES } from './site.js';
import { requestApproval } from './approval-prompt.js';
import { SITE_TOOL_DESCRIPTIONS, SITE_TOOL_DETAILS, SITE_TOOL_RISKS, type SiteTool } from './site-tools.js';

/**
 * How this tab's tour went, for a reload: `running` resumes at once, anything else offers Continue
 * when todos are left. The tour's task is not here: the plan holds it (`plan.task`, with the
 * summary and the todos). This is per tab (sessionStorage), because the plan is shared: every tab
 * of the site shows it and syncs it, but only the tab that ran the tour should pick it up again.
 */
type TourStatus = 'planning' | 'announcing' | 'running' | 'stopped' | 'failed' | 'finished';

const STATUS_KEY = 'planloop-demo:tour';
const STATUSES: readonly string[] = ['planning', 'announcing', 'running', 'stopped', 'failed', 'finished'];

function loadTourStatus(): TourStatus | null {
  try {
    const stored = sessionStorage.getItem(STATUS_KEY);
    return stored && STATUSES.includes(stored) ? (stored as TourStatus) : null;
  } catch {
    return null;
  }
}

function saveTourStatus(status: TourStatus | null): void {
  try {
    if (status) sessionStorage.setItem(STATUS_KEY, status);
    else sessionStorage.removeItem(STATUS_KEY);
  } catch {
    // Storage turned off: a reload then offers Continue instead of resuming at once.
  }
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
  /** Checks a todo's page evidence (`page.check`). */
  checkPage: PageChecker;
  /** Whether the user's main pointer is a finger: then the guide speaks of taps, not keys. */
  touch: () => boolean;
  /** The language to plan in when the ask does not show one (the browser's). */
  fallbackLanguage: () => string;
  onRunChange?: (state: 'idle' | 'planning' | 'announcing' | 'running') => void;
  /** The tour's language changed: the rest of the demo (the site, Notes, Settings) follows it. */
  onLanguage?: (lang: Lang) => void;
  /** Finds the tools' targets again on the site (refs <-> locators): live runs record tours with it, replays play them. */
  locators: TourLocators;
  /** The recorded tour for a canned ask (recorded-tours.ts), else `undefined`: the ask goes to the model. */
  recordedTour?: (task: string, signal: AbortSignal) => Promise<Tour | undefined>;
  /** Hears how each run ended (a live run's result carries the tour it recorded; a replay's, what it repaired). */
  onResult?: (result: RunResult | ReplayResult) => void;
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
  let status = loadTourStatus();
  let state: 'idle' | 'planning' | 'announcing' | 'running' = 'idle';
  let words: GuideWords = GUIDE_WORDS.en;
  // The Tour tab (index.html's #panel-guide) holds the ask box, the panel and the guide's lines.
  const tourTab = (el.askForm.closest('[role="tabpanel"]') ?? options.root) as HTMLElement;

  /** Speaks `lang` in the guide and the panel. */
  const useLanguage = (lang: Lang): void => {
    words = GUIDE_WORDS[lang];
    panel.strings = words.panel;
    // Screen readers switch voices by `lang`: on the tour's whole tab (the ask box, the plan panel,
    // the guide's lines; the suggestions say lang="en" in index.html).
    tourTab.lang = lang;
    panel.lang = lang;
    (el.askForm.querySelector('label') as HTMLLabelElement).textContent = words.askLabel;
    (el.askForm.querySelector('button') as HTMLButtonElement).textContent = words.ask;
    el.stop.textContent = words.stop;
    el.resume.textContent = words.resume;
    el.clear.textContent = words.clear;
    (el.question.querySelector('button') as HTMLButtonElement).textContent = words.answer;
    options.narrator.setLanguage(lang, words.next);
    options.onLanguage?.(lang);
  };
  /** The language of a tour asked as `task`: the ask's own, else the browser's. */
  const languageFor = (task: string): Lang => guideLanguage(languageOf(task) ?? options.fallbackLanguage()) ?? 'en';
  useLanguage('en');
  // Between narrations the focus rests on Stop (see narrator.ts), or on the panel's status line
  // where the panel leaves it when what it would give it back to has gone.
  const onPanelStatus = (active: Element | null): boolean => active === panel && panel.shadowRoot?.activeElement?.getAttribute('part') === 'meta';
  options.narrator.restFocusOn(el.stop, onPanelStatus);

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
      // The panel's status line holds the focus only until something better is there (see confirmStart).
      return (
        !active ||
        active === document.body ||
        onPanelStatus(active) ||
        (options.root.contains(active) && (active.matches(':disabled') || active.offsetParent === null))
      );
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
    // Asking disables the ask box under the focus: Stop, shown while planning and touring, takes it.
    if (focusLost()) {
      if (!el.stop.hidden) el.stop.focus();
      else if (ending) el.askInput.focus();
    }
    options.onRunChange?.(state);
  };

  const setStatus = (next: TourStatus | null): void => {
    status = next;
    saveTourStatus(next);
  };

  const tools = Object.fromEntries(
    Object.entries(options.tools).map(([name, tool]) => [
      name,
      {
        description: SITE_TOOL_DESCRIPTIONS[name as keyof typeof SITE_TOOL_DESCRIPTIONS],
        risk: SITE_TOOL_RISKS[name as keyof typeof SITE_TOOL_RISKS],
        describe: SITE_TOOL_DETAILS[name as keyof typeof SITE_TOOL_DETAILS],
        run: (args: Record<string, unknown>, context: LoopToolContext) => keepingFocus(() => tool(args, context)),
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
      // Start hands the focus to Stop (shown now, before the tour's state catches up), Cancel to the
      // panel's status until the ask box is back (setState).
      return await panel.review({
        signal,
        returnFocus: (approved) => {
          if (!approved) return null;
          el.stop.hidden = false;
          return el.stop;
        },
      });
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
  const stopHint = (): string => (options.touch() ? words.stopHintTouch : words.stopHintKeys);

  const run = async (task: string, resuming: boolean): Promise<void> => {
    if (controller) return;
    controller = new AbortController();
    const { signal } = controller;
    const plan = options.plan();
    useLanguage(languageFor(task));
    el.status.textContent = resuming ? words.resuming(stopHint()) : words.planning;
    setState(resuming ? 'running' : 'planning');
    // Until the new plan is made, the plan still holds the earlier tour's task and todos: a
    // planning call that fails or is stopped leaves them, its status and so what Continue resumes,
    // as they were.
    let planned = resuming;
    if (resuming) setStatus('running');
    const offCreate = plan.on('plan-create', () => {
      planned = true;
      setStatus('planning');
    });
    let result: RunResult | undefined;
    let offAction = (): void => {};
    try {
      // A canned ask plays its recorded tour: no planning call and no turn call, unless the page
      // changed under a step (then the model repairs that one step).
      if (!resuming && options.recordedTour) el.status.textContent = words.loadingRecorded;
      const recorded = resuming ? undefined : await options.recordedTour?.(task, signal);
      document.body.dataset.tourSource = recorded ? 'recorded' : 'live';
      const announce = async (): Promise<boolean> => {
        setStatus('announcing');
        setState('announcing');
        el.status.textContent = options.touch() ? words.readyTouch : words.readyKeys;
        const go = await confirmStart(signal);
        if (go) {
          setStatus('running');
          setState('running');
          el.status.textContent = recorded ? words.recordedTouring(stopHint()) : words.touring(stopHint());
        }
        return go;
      };
      const shared = {
        tools,
        signal,
        // Each turn sees the page as it is: the model picks its targets from this outline's refs;
        // the locators find them again (a live run records its tour with them, a replay plays it).
        page: { observe: ({ maxTokens }) => options.observe(maxTokens), locators: options.locators, check: options.checkPage },
        user: {
          narrate: (text, target, context) => options.narrator.say(text, target, context.signal).then(() => undefined),
          ask: (question, context) => askUser(question, context.signal),
        },
        // Moving around the site is the tour itself; what cannot be taken back (sending the trial
        // form) waits for the user's Allow, in a recorded tour too.
        approval: { level: 'irreversible', ask: (request, { signal: asking }) => requestApproval(panel, el.status, request, asking) },
      } satisfies Omit<RunOptions, 'task' | 'start'>;
      // A narration stays up until the guide does something else (in a live run or a replay: the plan's current run).
      let offRunAction = (): void => {};
      const offRuns = followRuns(plan, (run) => {
        offRunAction();
        offRunAction = run.on('action', ({ action }) => {
          if (action.type !== 'narrate') options.narrator.clear();
        });
      });
      offAction = () => {
        offRuns();
        offRunAction();
      };
      result = recorded
        ? // The demo's model (the offline one, or the endpoint in Settings) repairs a step the page no longer has.
          await replayTour(recorded, { ...shared, plan, start: { announce }, model: { provider: plan.provider('turn') } })
        : await startRun(plan, {
            ...shared,
            task,
            start: {
              // The user's language: the ask's own, else the browser's.
              planInput: { task, sitemap: SITE_PAGES, locale: languageOf(task) ?? options.fallbackLanguage() },
              // A new ask plans afresh even if a finished tour left todos undone; only Continue resumes.
              resume: resuming,
              announce,
            },
          }).result;
      options.onResult?.(result);
      if (result.reason === 'declined') {
        el.status.textContent = words.cancelled;
        setStatus(null);
      } else if (result.reason === 'turn_limit' || result.reason === 'unverified') {
        el.status.textContent = result.reason === 'unverified' ? words.unverified : words.outOfTurns;
        setStatus('failed');
      } else {
        el.status.textContent = words.finished(result.summary);
        setStatus('finished');
      }
    } catch (error) {
      const aborted = isPlanloopError(error, 'aborted');
      const message = (error as Error).message;
      // A failure before the plan was made is a failed ask, not a failed tour: nothing toured.
      el.status.textContent = aborted ? words.stopped : planned ? words.failed(message) : words.couldNotPlan(message);
      if (planned) setStatus(aborted ? 'stopped' : 'failed');
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
    setStatus(null);
    el.status.textContent = words.cleared;
    setState('idle');
  });

  const guide: Guide = {
    ask: (task) => start(task, false),
    resume: () => start(options.plan().task || 'Continue the tour', true),
    stop() {
      controller?.abort();
      return current;
    },
    get running() {
      return controller !== null;
    },
    refresh(refreshOptions = {}) {
      status = loadTourStatus();
      const plan = options.plan();
      if (plan.task && plan.todos.list().length > 0) useLanguage(languageFor(plan.task));
      setState('idle');
      if (plan.todos.remaining().length === 0) return;
      if (refreshOptions.autoResume && status === 'running') void guide.resume();
      else el.status.textContent = words.unfinished;
    },
  };
  return guide;
}

/**
 * Runs a tool and gives the focus back if the tool dropped it (a fill focuses its field, then blurs
 * it): a keyboard user on Stop or Next stays there.
 */
async function keepingFocus<T>(run: () => Promise<T>): Promise<T> {
  const before = document.activeElement as HTMLElement | null;
  try {
    return await run();
  } finally {
    const now = document.activeElement;
    if (before && before !== document.body && (!now || now === document.body) && before.isConnected && before.offsetParent !== null)
      before.focus({ preventScroll: true });
  }
}

/** Whether a key event comes from inside an open <dialog> (the settings): its keys are its own. */
function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog[open]') !== null;
}

/** Whether `target` is a control that Space activates itself (a button, link, tab...). */
function isControl(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.closest('button, a[href], summary, [role="button"], [role="tab"], [role="link"], [role="checkbox"], [role="radio"]') !== null
  );
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element) return false;
  return element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName);
}
