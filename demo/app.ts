// The demo's app: the Orbitly site, the guide, the plan panel, the notes and the settings, wired
// together by startDemo (main.ts calls it). It has no test hooks: e2e/fixtures.ts starts it through
// demo/fixtures/demo-hooks.ts instead, which adds them from outside.

import {
  Plan,
  createIndexedDbAdapter,
  createLocalStorageAdapter,
  createOpenAICompatibleProvider,
  type LLMProvider,
  type LLMSource,
  type PlanStorageAdapter,
  type ReplayResult,
  type RunResult,
} from 'planloop';
import { definePlanPanel } from 'planloop/ui';
import { checkPage, createTourLocators, outlinePage, renderOutline } from 'planloop/dom';
import { createDemoLanguage } from './demo-words.js';
import { createGuide } from './guide.js';
import { createGuideSheet } from './guide-sheet.js';
import { createNarrator } from './narrator.js';
import { createNotesPanel } from './notes.js';
import { createOfflineModel } from './offline-model/offline-model.js';
import { createPace, type Pace } from './pace.js';
import { recordedTourFor } from './recorded-tours.js';
import { SettingsStore, wireSettingsDialog, type DemoSettings } from './settings.js';
import { createSiteTools } from './site-tools.js';
import { startSite } from './site.js';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /**
   * Wraps each model the demo builds (the offline one or the endpoint from Settings), to log or
   * count its calls, or to route a role elsewhere. Default: the model as it is.
   */
  decorateModel?: ((model: LLMProvider) => LLMSource) | undefined;
  /**
   * Whether a canned ask plays its recorded tour (recorded-tours.ts) while the model is the offline
   * stand-in (the tours are its own; a real endpoint plans live). `?replay=0` turns it off too.
   * Default `true`.
   */
  recordedTours?: boolean | undefined;
  /** Hears how each tour ended: a live run's result (with the tour it recorded) or a replay's. Default: nothing. */
  onResult?: ((result: RunResult | ReplayResult) => void) | undefined;
}

/** The running demo. */
export interface DemoApp {
  /** The current plan (a new one after Settings changes the model or the storage). */
  readonly plan: Plan;
  /** The saved settings. */
  readonly settings: DemoSettings;
}

const STORAGE_KEY = 'planloop-demo';
const PLAYBOOK = `# How to guide on this site
"Introduce <page>" = navigate there, 2 to 4 narrate todos on what is on it, then finish.
"How to try" = the /try page; fill and submit the form only when the user asks to start a trial.
Narrate one thing at a time, and say where it is on the page.`;

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/**
 * Starts the demo on the page (demo/index.html's elements): the site's router, the guide, the
 * notes and the settings. Resolves once the plan is hydrated and an interrupted tour resumed.
 *
 * @example
 * ```ts
 * const demo = await startDemo();
 * demo.plan.todos.list();
 * ```
 */
export async function startDemo(options: DemoOptions = {}): Promise<DemoApp> {
  const query = new URLSearchParams(location.search);
  definePlanPanel();
  const settingsStore = new SettingsStore();
  const pace = (): Pace => createPace(query.get('fast') === '1' || settingsStore.settings.speed === 'fast');

  // The whole demo speaks the tour's language (English until a tour in another starts).
  const language = createDemoLanguage(document);
  const view = byId<HTMLElement>('view');
  const router = startSite(view, language);
  // The guide is a column beside the page on wide screens, a bottom sheet below 900 px (style.css).
  const sheet = createGuideSheet({
    guide: byId('guide'),
    toggle: byId('guide-toggle'),
    narrow: matchMedia('(max-width: 900px)'),
    words: () => language.words.sheet,
  });
  const narrator = createNarrator({ bubble: byId('narration'), scope: view, pace, bottomInset: () => sheet.cover() });
  const tools = createSiteTools({ router, view, pace });
  const panel = byId<HTMLElementTagNameMap['plan-panel']>('plan-panel');
  const notes = createNotesPanel(byId('panel-notes'), () => language.words.notes);

  /** Says which model the demo runs on, in the demo's language. */
  function showBadge(settings: DemoSettings): void {
    const badge = byId<HTMLParagraphElement>('model-badge');
    const words = language.words.badge;
    const endpoint = settings.mode === 'openai' && settings.baseURL !== '' && settings.model !== '';
    badge.dataset.mode = endpoint ? 'openai' : 'offline';
    badge.textContent = endpoint ? words.openai(settings.model, settings.baseURL) : settings.mode === 'openai' ? words.incomplete : words.offline;
  }

  // Whether the offline stand-in is the model: only then do canned asks play its recorded tours.
  let offline = true;

  function model(settings: DemoSettings): LLMProvider {
    showBadge(settings);
    offline = !(settings.mode === 'openai' && settings.baseURL && settings.model);
    if (settings.mode === 'openai' && settings.baseURL && settings.model) {
      const key = settingsStore.apiKey;
      return createOpenAICompatibleProvider({ baseURL: settings.baseURL, model: settings.model, ...(key ? { apiKey: key } : {}) });
    }
    return createOfflineModel({ pace });
  }

  function llmFor(settings: DemoSettings): LLMSource {
    const provider = model(settings);
    return options.decorateModel ? options.decorateModel(provider) : provider;
  }

  function storageFor(kind: DemoSettings['storage']): PlanStorageAdapter {
    return kind === 'idb' ? createIndexedDbAdapter({ key: STORAGE_KEY }) : createLocalStorageAdapter({ key: STORAGE_KEY });
  }

  function createPlan(settings: DemoSettings): Plan {
    const plan = new Plan({ llm: llmFor(settings), agentName: 'Orbit', appendSystemPrompt: PLAYBOOK, storage: storageFor(settings.storage) });
    plan.on('storage-error', ({ error }) => {
      byId('run-status').textContent = language.words.storageProblem(error.message);
    });
    return plan;
  }

  let plan = createPlan(settingsStore.settings);
  const host = { name: 'Orbitly guide' };
  plan.attachTo(host);
  panel.plan = plan;
  notes.setPlan(plan);

  const guide = createGuide({
    root: byId('guide'),
    plan: () => plan,
    panel,
    narrator,
    tools,
    observe: (maxTokens) => renderOutline(outlinePage({ root: view, maxTokens })),
    // A todo's page evidence is checked where the tools act (the site's view), never in the guide's own UI.
    checkPage: (check) => checkPage(check, { root: view }),
    // A finger is the main pointer: the guide speaks of taps, not of Space and Esc.
    touch: () => matchMedia('(pointer: coarse)').matches,
    fallbackLanguage: () => navigator.language || 'en',
    onRunChange: (state) => sheet.follow(state),
    // The same root as the tools: a recorded target is looked for where the tools act.
    locators: createTourLocators({ root: view }),
    // A canned ask plays its recorded tour (with the offline model); `?replay=0` sends every ask to the model.
    ...(options.recordedTours === false || query.get('replay') === '0'
      ? {}
      : { recordedTour: (task: string, signal: AbortSignal) => (offline ? recordedTourFor(task, signal) : Promise.resolve(undefined)) }),
    ...(options.onResult ? { onResult: options.onResult } : {}),
    onLanguage: (lang) => language.set(lang),
  });
  language.onChange(() => {
    showBadge(settingsStore.settings);
    notes.refresh();
    sheet.refresh();
  });

  wireSettingsDialog({
    dialog: byId('settings'),
    opener: byId('settings-open'),
    store: settingsStore,
    onSave: (before, after) => {
      applySettings(before, after).catch((error: unknown) => {
        byId('run-status').textContent = language.words.settingsFailed((error as Error).message);
      });
    },
    wholeURL: () => language.words.wholeURL,
  });

  let appliedKey = settingsStore.apiKey;

  /**
   * Rebuilds the plan on the new model and storage; a storage switch copies the plan and notes over.
   * A tour under way carries on on the new plan. Saving only the speed (it applies at once) or
   * nothing at all leaves the plan and the tour alone.
   */
  async function applySettings(before: DemoSettings, after: DemoSettings): Promise<void> {
    const saved = language.words.settingsSaved(after.mode, after.storage === 'idb' ? 'IndexedDB' : 'localStorage');
    const key = settingsStore.apiKey;
    const sameModel = before.mode === after.mode && before.baseURL === after.baseURL && before.model === after.model && key === appliedKey;
    if (sameModel && before.storage === after.storage) {
      byId('run-status').textContent = saved;
      return;
    }
    appliedKey = key;
    const touring = document.body.dataset.tour === 'running';
    await guide.stop();
    const old = plan;
    await old.flush();
    // The replaced plan stops syncing and lets go of its channel and page listeners.
    await old.close();
    if (before.storage !== after.storage) await storageFor(after.storage).save(old.snapshot());
    plan = createPlan(after);
    plan.attachTo(host);
    await plan.ready;
    panel.plan = plan;
    notes.setPlan(plan);
    guide.refresh();
    byId('run-status').textContent = saved;
    if (touring) void guide.resume();
  }

  wireTabs();

  await plan.ready;
  // A reload in the middle of a tour picks it up again at once, from the stored plan: no new plan.
  guide.refresh({ autoResume: query.get('resume') !== '0' });
  return {
    get plan() {
      return plan;
    },
    get settings() {
      return settingsStore.settings;
    },
  };
}

function wireTabs(): void {
  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>('.tabs [role="tab"]'));
  const select = (tab: HTMLButtonElement): void => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId(other.getAttribute('aria-controls') ?? '').hidden = !selected;
    }
  };
  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (event) => {
      if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
      const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
      if (next) {
        select(next);
        next.focus();
      }
    });
  }
}
