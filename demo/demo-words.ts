// The demo's own words around the tour, in each language of the demo (language.ts): the frame
// (the site's header, the guide's head, the tabs, the Notes panel, the Settings dialog, the model
// badge) and what the notes, the settings and the site say as they work. The whole demo speaks the
// tour's language: a German ask turns the site, Notes and Settings German too, an English one back.
// The guide's own lines and the plan panel's are in guide-words.ts; the site's pages are
// index.html's templates, one per language (site.ts picks them).
//
// Static texts are marked in index.html: `data-words="key"` takes the text, `data-words-label` the
// `aria-label`, `data-words-placeholder` the placeholder.

import type { Lang } from './language.js';

/** The frame's static texts, by the key index.html names them with. */
type FrameKey =
  | 'nav'
  | 'navHome'
  | 'navPricing'
  | 'navTry'
  | 'navDocs'
  | 'demoTag'
  | 'guide'
  | 'guideHeading'
  | 'settings'
  | 'tabs'
  | 'tour'
  | 'notes'
  | 'notesHeading'
  | 'newNote'
  | 'notesHint'
  | 'notesList'
  | 'sampleHint'
  | 'noteTitle'
  | 'noteContent'
  | 'save'
  | 'delete'
  | 'instructionLabel'
  | 'instructionPlaceholder'
  | 'apply'
  | 'stop'
  | 'settingsTitle'
  | 'model'
  | 'offline'
  | 'openai'
  | 'baseURL'
  | 'modelName'
  | 'apiKey'
  | 'rememberKey'
  | 'keyHint'
  | 'storage'
  | 'storageHint'
  | 'speed'
  | 'normal'
  | 'fast'
  | 'cancel';

/** Everything the demo says around the tour, in one language. */
export interface DemoWords {
  frame: Record<FrameKey, string>;
  /** The page titles of the site's paths (the sitemap keeps its English titles: it is the planner's data). */
  pageTitle: (path: string) => string;
  /** `document.title`'s end. */
  titleEnd: string;
  site: {
    trialMissing: string;
    trialReady: (name: string, plan: string, email: string) => string;
  };
  sheet: { open: string; hide: string };
  badge: { openai: (model: string, baseURL: string) => string; incomplete: string; offline: string };
  settingsSaved: (model: 'openai' | 'offline', storage: string) => string;
  settingsFailed: (message: string) => string;
  storageProblem: (message: string) => string;
  wholeURL: string;
  notes: {
    none: string;
    sample: (title: string, open: boolean) => string;
    newTitle: (n: number) => string;
    answerSoFar: (chars: number, noteChars: number) => string;
    saved: string;
    deleted: string;
    noInstruction: string;
    cannotEdit: (message: string) => string;
    draftLabel: string;
    rewriting: string;
    asking: string;
    gone: string;
    changeLabel: string;
    versionLabel: string;
    retrying: string;
    editing: string;
    editedInPlace: (blocks: number, size: string, renamed: boolean, merged: string) => string;
    merged: string;
    renamedOnly: (merged: string) => string;
    unchanged: (renamed: boolean) => string;
    rewritten: (merged: string) => string;
    cancelled: (edit: boolean, kept: string) => string;
    /** What is kept after a failed edit: the note, or (the user typed meanwhile) their typing. */
    keptNote: string;
    keptYours: string;
    declined: (words: string) => string;
    deletedMeanwhile: string;
    conflict: (where: string, shown: boolean) => string;
    failed: (edit: boolean, message: string) => string;
    /** The in-place edit's size: its answer's characters against the note's. */
    size: (answer: number, note: number) => string;
    sampleStatus: (chars: number) => string;
    whereTitle: string;
    whereLine: (line: number) => string;
  };
}

const number = (lang: Lang, n: number): string => n.toLocaleString(lang);

const EN: DemoWords = {
  frame: {
    nav: 'Site',
    navHome: 'Home',
    navPricing: 'Pricing',
    navTry: 'Try it',
    navDocs: 'Docs',
    demoTag: 'A fictional product · the planloop demo',
    guide: 'Guide',
    guideHeading: 'Guide',
    settings: 'Settings',
    tabs: 'Guide panels',
    tour: 'Tour',
    notes: 'Notes',
    notesHeading: 'Notes',
    newNote: 'New note',
    notesHint: "Notes live in the plan's markdown artifact and persist with it; what you type is saved as you type.",
    notesList: 'Notes',
    sampleHint: 'a long note (4 KB): the model edits it in place instead of rewriting it.',
    noteTitle: 'Title',
    noteContent: 'Content (markdown)',
    save: 'Save',
    delete: 'Delete',
    instructionLabel: 'Edit with an instruction',
    instructionPlaceholder: 'e.g. Make it a bulleted list',
    apply: 'Apply',
    stop: 'Stop',
    settingsTitle: 'Settings',
    model: 'Model',
    offline: 'Offline stand-in (no key, no network)',
    openai: 'An OpenAI-compatible endpoint',
    baseURL: 'Base URL',
    modelName: 'Model',
    apiKey: 'API key (optional)',
    rememberKey: 'Keep the key for this tab (sessionStorage)',
    keyHint: "The key stays in memory (or this tab's sessionStorage when you tick the box). It is never written to the plan's storage or to localStorage.",
    storage: 'Storage',
    storageHint: 'Switching copies the current plan and notes over.',
    speed: 'Tour speed',
    normal: 'Normal',
    fast: 'Fast',
    cancel: 'Cancel',
  },
  pageTitle: (path) => ({ '/': 'Home', '/commercial': 'Pricing', '/try': 'Try it', '/docs': 'Docs' })[path] ?? 'Not found',
  titleEnd: 'Orbitly · planloop demo',
  site: {
    trialMissing: 'Please give your name and a work email.',
    trialReady: (name, plan, email) => `Welcome aboard, ${name}! Your ${plan} trial is ready; we sent the details to ${email}.`,
  },
  sheet: { open: 'Ask the guide', hide: 'Hide' },
  badge: {
    openai: (model, baseURL) => `Model: ${model} at ${baseURL} (OpenAI-compatible).`,
    incomplete: 'The endpoint needs a base URL and a model; using the offline stand-in meanwhile.',
    offline: 'Offline stand-in model: it reads the prompt and plays a few canned tours. No network, no key. Connect a real model in Settings.',
  },
  settingsSaved: (model, storage) => `Settings saved: ${model === 'openai' ? 'OpenAI-compatible endpoint' : 'offline model'}, ${storage}.`,
  settingsFailed: (message) => `Applying the settings failed: ${message}`,
  storageProblem: (message) => `Storage problem: ${message}`,
  wholeURL: 'Give the whole URL, starting with http:// or https:// (e.g. http://localhost:11434/v1).',
  notes: {
    none: 'No notes yet.',
    sample: (title, open) => (open ? `Open the ${title}` : `Add the ${title}`),
    newTitle: (n) => `Note ${n}`,
    answerSoFar: (chars, noteChars) => `The model’s answer so far: ${number('en', chars)} characters, for a note of ${number('en', noteChars)}.`,
    saved: 'Saved.',
    deleted: 'Deleted.',
    noInstruction: 'Write an instruction first, e.g. "Make it a bulleted list".',
    cannotEdit: (message) => `Cannot edit yet: ${message}`,
    draftLabel: 'The model’s draft, as it arrives (nothing is saved until it is complete):',
    rewriting: 'Rewriting with the model…',
    asking: 'Asking the model to edit the note…',
    gone: 'That note no longer exists.',
    changeLabel: 'The model’s change, marked (now in the note):',
    versionLabel: 'The model’s version, not applied (your text is kept above; copy from it what you want):',
    retrying: 'The model’s first answer could not be used; it is trying again…',
    editing: 'The model is editing the note in place…',
    editedInPlace: (blocks, size, renamed, merged) =>
      `Edited in place by the model: ${blocks} passage${blocks === 1 ? '' : 's'} changed, the rest untouched (${size}).${renamed ? ' Renamed too.' : ''}${merged}`,
    merged: ' Merged with your changes: you edited the note while the model worked, and both edits are kept.',
    renamedOnly: (merged) => `Renamed by the model; it left the text as it was.${merged}`,
    unchanged: (renamed) => (renamed ? 'Renamed by the model; the text is unchanged.' : 'The model changed nothing.'),
    rewritten: (merged) => `Rewritten by the model.${merged}`,
    cancelled: (edit, kept) => `${edit ? 'Edit' : 'Rewrite'} cancelled; ${kept}`,
    keptNote: 'the note is unchanged.',
    keptYours: 'the model changed nothing (your typing is kept).',
    declined: (words) => `The model declined: ${words} The note is unchanged.`,
    deletedMeanwhile: 'The note was deleted while the model worked; nothing was saved.',
    conflict: (where, shown) =>
      `Conflict: you changed the same place as the model (${where}), so your text was kept and the model’s edit was not applied.${shown ? ' Its version is below.' : ''}`,
    failed: (edit, message) => `The ${edit ? 'edit' : 'rewrite'} failed: ${message}`,
    size: (answer, note) => `its answer was ${number('en', answer)} characters for a note of ${number('en', note)}`,
    sampleStatus: (chars) =>
      `${number('en', chars)} characters: the model edits a note this long in place, with blocks that touch only what changes. Apply the example instruction, or write your own.`,
    whereTitle: 'the title',
    whereLine: (line) => `line ${line}`,
  },
};

const DE: DemoWords = {
  frame: {
    nav: 'Website',
    navHome: 'Start',
    navPricing: 'Preise',
    navTry: 'Testen',
    navDocs: 'Doku',
    demoTag: 'Ein erfundenes Produkt · die planloop-Demo',
    guide: 'Guide',
    guideHeading: 'Guide',
    settings: 'Einstellungen',
    tabs: 'Guide-Bereiche',
    tour: 'Tour',
    notes: 'Notizen',
    notesHeading: 'Notizen',
    newNote: 'Neue Notiz',
    notesHint: 'Notizen gehören zum Plan (als Markdown) und werden mit ihm gespeichert, schon während du tippst.',
    notesList: 'Notizen',
    sampleHint: 'eine lange Notiz (4 KB): Das Modell ändert sie an Ort und Stelle, statt sie neu zu schreiben.',
    noteTitle: 'Titel',
    noteContent: 'Inhalt (Markdown)',
    save: 'Speichern',
    delete: 'Löschen',
    instructionLabel: 'Mit einer Anweisung bearbeiten',
    instructionPlaceholder: 'z. B. Mach eine Aufzählung daraus',
    apply: 'Anwenden',
    stop: 'Anhalten',
    settingsTitle: 'Einstellungen',
    model: 'Modell',
    offline: 'Offline-Modell (kein Schlüssel, kein Netz)',
    openai: 'Ein OpenAI-kompatibler Endpunkt',
    baseURL: 'Basis-URL',
    modelName: 'Modell',
    apiKey: 'API-Schlüssel (optional)',
    rememberKey: 'Schlüssel für diesen Tab behalten (sessionStorage)',
    keyHint:
      'Der Schlüssel bleibt im Speicher (oder im sessionStorage dieses Tabs, wenn du das Kästchen ankreuzt). Er wird nie in den Speicher des Plans oder in localStorage geschrieben.',
    storage: 'Speicher',
    storageHint: 'Beim Wechsel werden Plan und Notizen mitgenommen.',
    speed: 'Tempo der Tour',
    normal: 'Normal',
    fast: 'Schnell',
    cancel: 'Abbrechen',
  },
  pageTitle: (path) => ({ '/': 'Start', '/commercial': 'Preise', '/try': 'Testen', '/docs': 'Doku' })[path] ?? 'Nicht gefunden',
  titleEnd: 'Orbitly · planloop-Demo',
  site: {
    trialMissing: 'Bitte gib deinen Namen und eine geschäftliche E-Mail an.',
    trialReady: (name, plan, email) => `Willkommen an Bord, ${name}! Deine ${plan}-Testphase ist bereit; die Details haben wir an ${email} geschickt.`,
  },
  sheet: { open: 'Frag den Guide', hide: 'Ausblenden' },
  badge: {
    openai: (model, baseURL) => `Modell: ${model} unter ${baseURL} (OpenAI-kompatibel).`,
    incomplete: 'Der Endpunkt braucht eine Basis-URL und ein Modell; bis dahin läuft das Offline-Modell.',
    offline:
      'Offline-Modell: Es liest den Prompt und spielt ein paar vorbereitete Touren. Kein Netz, kein Schlüssel. Ein echtes Modell verbindest du in den Einstellungen.',
  },
  settingsSaved: (model, storage) => `Einstellungen gespeichert: ${model === 'openai' ? 'OpenAI-kompatibler Endpunkt' : 'Offline-Modell'}, ${storage}.`,
  settingsFailed: (message) => `Die Einstellungen ließen sich nicht anwenden: ${message}`,
  storageProblem: (message) => `Problem mit dem Speicher: ${message}`,
  wholeURL: 'Gib die ganze URL an, mit http:// oder https:// (z. B. http://localhost:11434/v1).',
  notes: {
    none: 'Noch keine Notizen.',
    sample: (title, open) => (open ? `„${title}“ öffnen` : `„${title}“ hinzufügen`),
    newTitle: (n) => `Notiz ${n}`,
    answerSoFar: (chars, noteChars) => `Die Antwort des Modells bisher: ${number('de', chars)} Zeichen, für eine Notiz mit ${number('de', noteChars)}.`,
    saved: 'Gespeichert.',
    deleted: 'Gelöscht.',
    noInstruction: 'Schreib zuerst eine Anweisung, z. B. „Mach eine Aufzählung daraus“.',
    cannotEdit: (message) => `Noch nicht bearbeitbar: ${message}`,
    draftLabel: 'Der Entwurf des Modells, während er entsteht (gespeichert wird erst, wenn er fertig ist):',
    rewriting: 'Das Modell schreibt die Notiz neu …',
    asking: 'Das Modell wird gebeten, die Notiz zu bearbeiten …',
    gone: 'Diese Notiz gibt es nicht mehr.',
    changeLabel: 'Die Änderung des Modells, markiert (jetzt in der Notiz):',
    versionLabel: 'Die Fassung des Modells, nicht übernommen (dein Text oben bleibt; kopiere daraus, was du willst):',
    retrying: 'Die erste Antwort des Modells war unbrauchbar; es versucht es noch einmal …',
    editing: 'Das Modell bearbeitet die Notiz an Ort und Stelle …',
    editedInPlace: (blocks, size, renamed, merged) =>
      `Vom Modell an Ort und Stelle bearbeitet: ${blocks} ${blocks === 1 ? 'Stelle' : 'Stellen'} geändert, der Rest unberührt (${size}).${renamed ? ' Auch umbenannt.' : ''}${merged}`,
    merged: ' Mit deinen Änderungen zusammengeführt: Du hast die Notiz bearbeitet, während das Modell arbeitete, und beide Änderungen bleiben.',
    renamedOnly: (merged) => `Vom Modell umbenannt; den Text hat es gelassen, wie er war.${merged}`,
    unchanged: (renamed) => (renamed ? 'Vom Modell umbenannt; der Text ist unverändert.' : 'Das Modell hat nichts geändert.'),
    rewritten: (merged) => `Vom Modell neu geschrieben.${merged}`,
    cancelled: (edit, kept) => `${edit ? 'Bearbeitung' : 'Neufassung'} abgebrochen; ${kept}`,
    keptNote: 'die Notiz ist unverändert.',
    keptYours: 'das Modell hat nichts geändert (was du getippt hast, bleibt).',
    declined: (words) => `Das Modell hat abgelehnt: ${words} Die Notiz ist unverändert.`,
    deletedMeanwhile: 'Die Notiz wurde gelöscht, während das Modell arbeitete; nichts wurde gespeichert.',
    conflict: (where, shown) =>
      `Konflikt: Du hast dieselbe Stelle geändert wie das Modell (${where}); dein Text bleibt, die Änderung des Modells wurde nicht übernommen.${shown ? ' Seine Fassung steht unten.' : ''}`,
    failed: (edit, message) => `${edit ? 'Die Bearbeitung' : 'Die Neufassung'} ist fehlgeschlagen: ${message}`,
    size: (answer, note) => `die Antwort hatte ${number('de', answer)} Zeichen, die Notiz ${number('de', note)}`,
    sampleStatus: (chars) =>
      `${number('de', chars)} Zeichen: Eine so lange Notiz bearbeitet das Modell an Ort und Stelle, mit Blöcken, die nur das Geänderte berühren. Wende die Beispielanweisung an oder schreib deine eigene.`,
    whereTitle: 'der Titel',
    whereLine: (line) => `Zeile ${line}`,
  },
};

const JA: DemoWords = {
  frame: {
    nav: 'サイト',
    navHome: 'ホーム',
    navPricing: '料金',
    navTry: '試す',
    navDocs: 'ドキュメント',
    demoTag: '架空の製品 · planloop のデモ',
    guide: 'ガイド',
    guideHeading: 'ガイド',
    settings: '設定',
    tabs: 'ガイドのパネル',
    tour: 'ツアー',
    notes: 'メモ',
    notesHeading: 'メモ',
    newNote: '新しいメモ',
    notesHint: 'メモはプランの Markdown として一緒に保存されます。入力した内容はその場で保存されます。',
    notesList: 'メモ',
    sampleHint: '長いメモ (4 KB) です。モデルは書き直さずに、その場で編集します。',
    noteTitle: 'タイトル',
    noteContent: '内容 (Markdown)',
    save: '保存',
    delete: '削除',
    instructionLabel: '指示で編集',
    instructionPlaceholder: '例: 箇条書きにして',
    apply: '適用',
    stop: '停止',
    settingsTitle: '設定',
    model: 'モデル',
    offline: 'オフラインの代役 (キー不要、通信なし)',
    openai: 'OpenAI 互換のエンドポイント',
    baseURL: 'ベース URL',
    modelName: 'モデル名',
    apiKey: 'API キー (任意)',
    rememberKey: 'このタブの間キーを保持する (sessionStorage)',
    keyHint: 'キーはメモリ (チェックを入れた場合はこのタブの sessionStorage) にだけ置かれます。プランの保存先や localStorage には書き込みません。',
    storage: '保存先',
    storageHint: '切り替えると、いまのプランとメモを移します。',
    speed: 'ツアーの速さ',
    normal: '標準',
    fast: '速い',
    cancel: 'キャンセル',
  },
  pageTitle: (path) => ({ '/': 'ホーム', '/commercial': '料金', '/try': '試す', '/docs': 'ドキュメント' })[path] ?? 'ページが見つかりません',
  titleEnd: 'Orbitly · planloop デモ',
  site: {
    trialMissing: 'お名前と仕事用のメールアドレスを入力してください。',
    trialReady: (name, plan, email) => `ようこそ、${name}さん！${plan}プランのトライアルを用意しました。詳細は${email}にお送りしました。`,
  },
  sheet: { open: 'ガイドに質問', hide: '閉じる' },
  badge: {
    openai: (model, baseURL) => `モデル: ${baseURL} の ${model} (OpenAI 互換)。`,
    incomplete: 'エンドポイントにはベース URL とモデル名が必要です。それまではオフラインの代役を使います。',
    offline: 'オフラインの代役モデル: プロンプトを読み、用意されたツアーをいくつか演じます。通信もキーも不要です。本物のモデルは「設定」でつなげます。',
  },
  settingsSaved: (model, storage) => `設定を保存しました: ${model === 'openai' ? 'OpenAI 互換のエンドポイント' : 'オフラインのモデル'}、${storage}。`,
  settingsFailed: (message) => `設定を反映できませんでした: ${message}`,
  storageProblem: (message) => `保存先の問題: ${message}`,
  wholeURL: 'http:// か https:// から始まる完全な URL を入力してください (例: http://localhost:11434/v1)。',
  notes: {
    none: 'メモはまだありません。',
    sample: (title, open) => (open ? `「${title}」を開く` : `「${title}」を追加`),
    newTitle: (n) => `メモ ${n}`,
    answerSoFar: (chars, noteChars) => `ここまでのモデルの回答: ${number('ja', chars)} 文字 (メモは ${number('ja', noteChars)} 文字)。`,
    saved: '保存しました。',
    deleted: '削除しました。',
    noInstruction: 'まず指示を書いてください。例:「箇条書きにして」',
    cannotEdit: (message) => `まだ編集できません: ${message}`,
    draftLabel: '届きつつあるモデルの下書き (完成するまで保存されません):',
    rewriting: 'モデルが書き直しています…',
    asking: 'モデルにメモの編集を頼んでいます…',
    gone: 'このメモはもうありません。',
    changeLabel: 'モデルによる変更 (印付き、メモに反映済み):',
    versionLabel: 'モデルの版 (未反映。あなたの文章は上に残っています。必要な部分をコピーしてください):',
    retrying: 'モデルの最初の回答は使えませんでした。もう一度試しています…',
    editing: 'モデルがメモをその場で編集しています…',
    editedInPlace: (blocks, size, renamed, merged) =>
      `モデルがその場で編集しました: ${blocks} か所を変更、ほかはそのまま (${size})。${renamed ? 'タイトルも変更しました。' : ''}${merged}`,
    merged: 'あなたの変更と統合しました: モデルの作業中にメモを編集したので、両方の変更を残しています。',
    renamedOnly: (merged) => `モデルがタイトルを変えました。本文はそのままです。${merged}`,
    unchanged: (renamed) => (renamed ? 'モデルがタイトルを変えました。本文は変わっていません。' : 'モデルは何も変えませんでした。'),
    rewritten: (merged) => `モデルが書き直しました。${merged}`,
    cancelled: (edit, kept) => `${edit ? '編集' : '書き直し'}を取り消しました。${kept}`,
    keptNote: 'メモは変わっていません。',
    keptYours: 'モデルは何も変えていません (入力した内容は残っています)。',
    declined: (words) => `モデルが断りました: ${words} メモは変わっていません。`,
    deletedMeanwhile: 'モデルの作業中にメモが削除されました。何も保存していません。',
    conflict: (where, shown) =>
      `競合: モデルと同じ箇所 (${where}) を変更したため、あなたの文章を残し、モデルの編集は反映しませんでした。${shown ? 'モデルの版は下にあります。' : ''}`,
    failed: (edit, message) => `${edit ? '編集' : '書き直し'}に失敗しました: ${message}`,
    size: (answer, note) => `回答は ${number('ja', answer)} 文字、メモは ${number('ja', note)} 文字`,
    sampleStatus: (chars) =>
      `${number('ja', chars)} 文字: これだけ長いメモは、変わる部分だけに触れるブロックでモデルがその場で編集します。例の指示を適用するか、自分で書いてください。`,
    whereTitle: 'タイトル',
    whereLine: (line) => `${line} 行目`,
  },
};

/** The demo's words in each of its languages. */
export const DEMO_WORDS: Readonly<Record<Lang, DemoWords>> = { en: EN, de: DE, ja: JA };

/** The language the demo speaks now, and who follows it. */
export interface DemoLanguage {
  readonly lang: Lang;
  readonly words: DemoWords;
  /** Speaks `lang` from now on: the page's `lang`, the frame's texts, then every follower. */
  set(lang: Lang): void;
  /** Calls `listener` after each change of language; returns the function that stops it. */
  onChange(listener: (lang: Lang) => void): () => void;
}

/**
 * The demo's language, English until a tour in another one starts; `root` holds the elements
 * marked with `data-words…` (the whole document).
 *
 * @example
 * ```ts
 * const language = createDemoLanguage(document);
 * language.set('de'); // the header, tabs, Notes and Settings speak German
 * ```
 */
export function createDemoLanguage(root: ParentNode & Node): DemoLanguage {
  let lang: Lang = 'en';
  const listeners = new Set<(lang: Lang) => void>();
  const apply = (): void => {
    const words = DEMO_WORDS[lang].frame;
    const word = (key: string | undefined): string | undefined => (key && Object.hasOwn(words, key) ? words[key as FrameKey] : undefined);
    for (const element of root.querySelectorAll<HTMLElement>('[data-words], [data-words-label], [data-words-placeholder]')) {
      const text = word(element.dataset.words);
      if (text !== undefined) element.textContent = text;
      const label = word(element.dataset.wordsLabel);
      if (label !== undefined) element.setAttribute('aria-label', label);
      const placeholder = word(element.dataset.wordsPlaceholder);
      if (placeholder !== undefined) element.setAttribute('placeholder', placeholder);
    }
    document.documentElement.lang = lang;
  };
  return {
    get lang() {
      return lang;
    },
    get words() {
      return DEMO_WORDS[lang];
    },
    set(next) {
      if (next === lang) return;
      lang = next;
      apply();
      for (const listener of [...listeners]) listener(lang);
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
