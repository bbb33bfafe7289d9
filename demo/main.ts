// The demo's entry point: the Orbitly site, the guide, the plan panel, the notes and the settings.
//
// Test hooks (used by e2e/demo*.spec.ts, harmless otherwise): `window.__demo` exposes the plan and
// how many model calls each role made (`calls.plan` counts planning calls), and
// `<body data-ready="true">` says start-up (hydration, resume decision) is over. With `?hold=1`
// the offline model holds each answer's last chunk until `window.__demo.release()`.

import {
  Plan,
  createIndexedDbAdapter,
  createLLMRouter,
  createLocalStorageAdapter,
  createOpenAICompatibleProvider,
  type LLMProvider,
  type PlanStorageAdapter,
} from 'planloop';
import { definePlanPanel } from 'planloop/ui';
import { outlinePage, renderOutline } from 'planloop/dom';
import { createGuide } from './guide.js';
import { createGuideSheet } from './guide-sheet.js';
import { createNarrator } from './narrator.js';
import { createNotesPanel } from './notes.js';
import { createOfflineModel } from './offline-model.js';
import { createPace, type Pace } from './pace.js';
import { SettingsStore, wireSettingsDialog, type DemoSettings } from './settings.js';
import { createSiteTools } from './site-tools.js';
import { startSite } from './site.js';

/** What the demo exposes for its end-to-end tests. */
interface DemoHooks {
  plan: Plan;
  calls: { plan: number; turn: number; edit: number };
  /** Lets the offline model send the last chunk it holds (`?hold=1`). */
  release(): void;
  settings: DemoSettings;
}

declare global {
  interface Window {
    __demo?: DemoHooks;
  }
}

const STORAGE_KEY = 'planloop-demo';
const PLAYBOOK = `# How to guide on this site
"Introduce <page>" = navigate there, 2 to 4 narrate todos on what is on it, then finish.
"How to try" = the /try page; fill and submit the form only when the user asks to start a trial.
Narrate one thing at a time, and say where it is on the page.`;

const query = new URLSearchParams(location.search);
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

definePlanPanel();
const settingsStore = new SettingsStore();
const calls = { plan: 0, turn: 0, edit: 0 };
/**
 * Answers the offline model holds open (`?hold=1`), released by `window.__demo.release()`. A
 * release that comes before the answer reached its last chunk lets that answer through when it
 * gets there (a test may release before the model has caught up).
 */
const held: Array<() => void> = [];
let releasedEarly = 0;
const holdAnswer = (): Promise<void> => {
  if (releasedEarly > 0) {
    releasedEarly -= 1;
    return Promise.resolve();
  }
  return new Promise((release) => held.push(release));
};
const pace = (): Pace => createPace(query.get('fast') === '1' || settingsStore.settings.speed === 'fast');

const view = byId<HTMLElement>('view');
const router = startSite(view);
// The guide is a column beside the page on wide screens, a bottom sheet below 900 px (style.css).
const sheet = createGuideSheet({ guide: byId('guide'), toggle: byId('guide-toggle'), narrow: matchMedia('(max-width: 900px)') });
const narrator = createNarrator({ bubble: byId('narration'), scope: view, pace, bottomInset: () => sheet.cover() });
const tools = createSiteTools({ router, view, pace });
const panel = byId<HTMLElementTagNameMap['plan-panel']>('plan-panel');
const notes = createNotesPanel(byId('panel-notes'));

/** Counts each role's calls, so that tests can tell a resume from a new plan. */
function counted(provider: LLMProvider, role: keyof typeof calls): LLMProvider {
  const stream = provider.stream?.bind(provider);
  return {
    generate(request) {
      calls[role] += 1;
      return provider.generate(request);
    },
    ...(stream
      ? {
          stream(request) {
            calls[role] += 1;
            return stream(request);
          },
        }
      : {}),
  };
}

function model(settings: DemoSettings): LLMProvider {
  const badge = byId<HTMLParagraphElement>('model-badge');
  if (settings.mode === 'openai' && settings.baseURL && settings.model) {
    badge.dataset.mode = 'openai';
    badge.textContent = `Model: ${settings.model} at ${settings.baseURL} (OpenAI-compatible).`;
    const key = settingsStore.apiKey;
    return createOpenAICompatibleProvider({ baseURL: settings.baseURL, model: settings.model, ...(key ? { apiKey: key } : {}) });
  }
  badge.dataset.mode = 'offline';
  badge.textContent =
    settings.mode === 'openai'
      ? 'The endpoint needs a base URL and a model; using the offline stand-in meanwhile.'
      : 'Offline stand-in model: it reads the prompt and plays a few canned tours. No network, no key. Connect a real model in Settings.';
  return createOfflineModel({ pace, beforeLastChunk: query.has('hold') ? holdAnswer : undefined });
}

function llmFor(settings: DemoSettings) {
  const provider = model(settings);
  return createLLMRouter({
    default: provider,
    plan: counted(provider, 'plan'),
    turn: counted(provider, 'turn'),
    edit: counted(provider, 'edit'),
  });
}

function storageFor(kind: DemoSettings['storage']): PlanStorageAdapter {
  return kind === 'idb' ? createIndexedDbAdapter({ key: STORAGE_KEY }) : createLocalStorageAdapter({ key: STORAGE_KEY });
}

function createPlan(settings: DemoSettings): Plan {
  const plan = new Plan({ llm: llmFor(settings), agentName: 'Orbit', appendSystemPrompt: PLAYBOOK, storage: storageFor(settings.storage) });
  plan.on('storage-error', ({ error }) => {
    byId('run-status').textContent = `Storage problem: ${error.message}`;
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
  // A finger is the main pointer: the guide speaks of taps, not of Space and Esc.
  touch: () => matchMedia('(pointer: coarse)').matches,
  fallbackLanguage: () => navigator.language || 'en',
  onRunChange: (state) => sheet.follow(state),
});

window.__demo = {
  get plan() {
    return plan;
  },
  calls,
  release: () => {
    if (held.length === 0) releasedEarly += 1;
    for (const release of held.splice(0)) release();
  },
  get settings() {
    return settingsStore.settings;
  },
};

wireSettingsDialog({
  dialog: byId('settings'),
  opener: byId('settings-open'),
  store: settingsStore,
  onSave: (before, after) => {
    applySettings(before, after).catch((error: unknown) => {
      byId('run-status').textContent = `Applying the settings failed: ${(error as Error).message}`;
    });
  },
});

let appliedKey = settingsStore.apiKey;

/**
 * Rebuilds the plan on the new model and storage; a storage switch copies the plan and notes over.
 * A tour under way carries on on the new plan. Saving only the speed (it applies at once) or
 * nothing at all leaves the plan and the tour alone.
 */
async function applySettings(before: DemoSettings, after: DemoSettings): Promise<void> {
  const storage = after.storage === 'idb' ? 'IndexedDB' : 'localStorage';
  const modelName = after.mode === 'openai' ? 'OpenAI-compatible endpoint' : 'offline model';
  const key = settingsStore.apiKey;
  const sameModel = before.mode === after.mode && before.baseURL === after.baseURL && before.model === after.model && key === appliedKey;
  if (sameModel && before.storage === after.storage) {
    byId('run-status').textContent = `Settings saved: ${modelName}, ${storage}.`;
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
  byId('run-status').textContent = `Settings saved: ${modelName}, ${storage}.`;
  if (touring) void guide.resume();
}

wireTabs();

await plan.ready;
// A reload in the middle of a tour picks it up again at once, from the stored plan: no new plan.
guide.refresh({ autoResume: query.get('resume') !== '0' });
document.body.dataset.ready = 'true';

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
