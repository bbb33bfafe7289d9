// The demo's settings: which model (the offline stand-in or an OpenAI-compatible endpoint), which
// storage, and how fast the tour goes. The non-secret settings persist in localStorage; the API key
// stays in memory, or in this tab's sessionStorage when the user asks, and never anywhere else.

/** What the settings dialog edits. */
export interface DemoSettings {
  mode: 'offline' | 'openai';
  baseURL: string;
  model: string;
  storage: 'local' | 'idb';
  speed: 'normal' | 'fast';
}

const SETTINGS_KEY = 'planloop-demo:settings';
const KEY_KEY = 'planloop-demo:api-key';

const DEFAULTS: DemoSettings = { mode: 'offline', baseURL: '', model: '', storage: 'local', speed: 'normal' };

/** The settings and the key, read once at start-up. */
export class SettingsStore {
  #settings: DemoSettings;
  #apiKey: string;
  #remember: boolean;

  constructor() {
    let stored: Partial<DemoSettings> = {};
    try {
      stored = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}') as Partial<DemoSettings>;
    } catch {
      stored = {};
    }
    this.#settings = {
      mode: stored.mode === 'openai' ? 'openai' : 'offline',
      baseURL: typeof stored.baseURL === 'string' ? stored.baseURL : DEFAULTS.baseURL,
      model: typeof stored.model === 'string' ? stored.model : DEFAULTS.model,
      storage: stored.storage === 'idb' ? 'idb' : 'local',
      speed: stored.speed === 'fast' ? 'fast' : 'normal',
    };
    this.#apiKey = sessionStorage.getItem(KEY_KEY) ?? '';
    this.#remember = this.#apiKey !== '';
  }

  get settings(): DemoSettings {
    return { ...this.#settings };
  }

  get apiKey(): string {
    return this.#apiKey;
  }

  get rememberKey(): boolean {
    return this.#remember;
  }

  save(next: DemoSettings, apiKey: string, remember: boolean): void {
    this.#settings = { ...next };
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(this.#settings));
    this.#apiKey = apiKey;
    this.#remember = remember;
    if (remember && apiKey) sessionStorage.setItem(KEY_KEY, apiKey);
    else sessionStorage.removeItem(KEY_KEY);
  }
}

/** Wires the settings <dialog>: fills it from the store on open, saves on "Save". */
export function wireSettingsDialog(options: {
  dialog: HTMLDialogElement;
  opener: HTMLButtonElement;
  store: SettingsStore;
  onSave: (before: DemoSettings, after: DemoSettings) => void;
  /** What to say about a base URL without its scheme, in the demo's language now. */
  wholeURL: () => string;
}): void {
  const { dialog, opener, store } = options;
  const form = dialog.querySelector('form') as HTMLFormElement;
  const field = <T extends HTMLElement>(selector: string): T => dialog.querySelector(selector) as T;
  const radios = (name: string): HTMLInputElement[] => Array.from(form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`));
  const openaiFields = field<HTMLDivElement>('#openai-fields');
  const syncVisibility = (): void => {
    openaiFields.hidden = radios('model-mode').find((r) => r.checked)?.value !== 'openai';
  };

  opener.addEventListener('click', () => {
    const current = store.settings;
    for (const radio of radios('model-mode')) radio.checked = radio.value === current.mode;
    for (const radio of radios('storage')) radio.checked = radio.value === current.storage;
    for (const radio of radios('speed')) radio.checked = radio.value === current.speed;
    field<HTMLInputElement>('#openai-base').value = current.baseURL;
    field<HTMLInputElement>('#openai-model').value = current.model;
    field<HTMLInputElement>('#openai-key').value = store.apiKey;
    field<HTMLInputElement>('#openai-remember').checked = store.rememberKey;
    syncVisibility();
    dialog.returnValue = '';
    dialog.showModal();
  });
  for (const radio of radios('model-mode')) radio.addEventListener('change', syncVisibility);

  // A base URL without its scheme ("localhost:11434/v1") cannot be fetched: say so before saving.
  const base = field<HTMLInputElement>('#openai-base');
  base.addEventListener('input', () => base.setCustomValidity(''));
  field<HTMLButtonElement>('#settings-save').addEventListener('click', () => {
    const url = base.value.trim();
    const openai = radios('model-mode').find((r) => r.checked)?.value === 'openai';
    base.setCustomValidity(openai && url && !/^https?:\/\/[^\s/]/i.test(url) ? options.wholeURL() : '');
  });

  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'save') return;
    const before = store.settings;
    const pick = (name: string): string => radios(name).find((r) => r.checked)?.value ?? '';
    const after: DemoSettings = {
      mode: pick('model-mode') === 'openai' ? 'openai' : 'offline',
      baseURL: field<HTMLInputElement>('#openai-base').value.trim(),
      model: field<HTMLInputElement>('#openai-model').value.trim(),
      storage: pick('storage') === 'idb' ? 'idb' : 'local',
      speed: pick('speed') === 'fast' ? 'fast' : 'normal',
    };
    store.save(after, field<HTMLInputElement>('#openai-key').value.trim(), field<HTMLInputElement>('#openai-remember').checked);
    // Do not leave the key in the form either.
    field<HTMLInputElement>('#openai-key').value = '';
    options.onSave(before, after);
  });
  dialog.addEventListener('cancel', () => {
    dialog.returnValue = 'cancel';
  });
}
