// The notes panel: the plan's markdown artifact as a tiny editor. Create, edit, delete, and "edit
// with an instruction" through the model (plan.markdown.editWithInstruction): a short note comes
// back rewritten whole, a long one edited in place with SEARCH/REPLACE blocks. The model's draft
// shows as it streams, Stop discards it, what is typed meanwhile is saved as it is typed and merged
// with the model's edit, and a refusal, a conflict or a failure is said as such. Titles and
// contents are shown through textContent and form values only.

import { ConflictError, EditError, type MarkdownDoc, type Plan, type Unsubscribe } from 'planloop';
import { EDITS_MIN_CHARS } from 'planloop/planning';
import type { DemoWords } from './demo-words.js';
import { TOUR_HANDBOOK, TOUR_HANDBOOK_TITLE } from './tour-handbook.js';

export interface NotesPanel {
  setPlan(plan: Plan): void;
  /** Redraws what the panel says in the demo's language now (the list's texts; a status stays until the next). */
  refresh(): void;
}

/** An edit by the model under way. */
interface Run {
  id: string;
  controller: AbortController;
  /** The note as the model got it. */
  base: MarkdownDoc;
  /** The model's answer so far (this attempt), and the note as it forms from it. */
  text: string;
  preview: string | undefined;
  /** How the answer is written, once that shows: blocks (edits in place) or the whole note. */
  form: 'edits' | 'rewrite' | undefined;
  attempt: number;
  /** The note was changed by someone else (the user typing, another tab) while the model worked. */
  concurrent: boolean;
  /** The draft has been brought into view once (later it stays where the user scrolls it). */
  shown: boolean;
}

/** `words` gives the demo's words in its language now (demo-words.ts). */
export function createNotesPanel(root: HTMLElement, words: () => DemoWords['notes']): NotesPanel {
  const $ = <T extends HTMLElement>(selector: string): T => root.querySelector(selector) as T;
  const list = $<HTMLUListElement>('#notes-list');
  const editor = $<HTMLFormElement>('#note-editor');
  const title = $<HTMLInputElement>('#note-title');
  const content = $<HTMLTextAreaElement>('#note-content');
  const instruction = $<HTMLInputElement>('#note-instruction');
  const apply = $<HTMLButtonElement>('#note-apply');
  const stop = $<HTMLButtonElement>('#note-stop');
  const sample = $<HTMLButtonElement>('#note-sample');
  const status = $<HTMLParagraphElement>('#note-status');
  const draft = $<HTMLElement>('#note-draft');
  const draftLabel = $<HTMLElement>('#note-draft-label');
  const draftText = $<HTMLPreElement>('#note-draft-text');
  const answerLabel = $<HTMLElement>('#note-answer-label');
  const answerText = $<HTMLPreElement>('#note-answer');
  let plan: Plan | null = null;
  let offs: Unsubscribe[] = [];
  let selected: string | null = null;
  let run: Run | null = null;
  let drawing = 0;

  /** Saves what is in the editor when it differs from the stored note; throws the edit's error. */
  const saveEditor = (): void => {
    const doc = selected && plan ? plan.markdown.read(selected) : null;
    if (!plan || !doc || (doc.title === title.value && doc.content === content.value)) return;
    plan.markdown.edit(doc.id, { title: title.value, content: content.value });
  };

  /**
   * Saves typing as it happens, so that an edit by the model running meanwhile merges with it. A
   * title that cannot be saved (empty) is left to Save, which says why; the content still is saved.
   */
  const saveTyping = (): void => {
    try {
      saveEditor();
    } catch {
      const doc = selected && plan ? plan.markdown.read(selected) : null;
      if (doc && doc.content !== content.value) plan?.markdown.edit(doc.id, { content: content.value });
    }
  };

  const show = (id: string | null): void => {
    // Leaving a note keeps what was typed in it (a title left empty cannot be saved: that edit is dropped).
    if (id !== selected) saveTyping();
    selected = id;
    const doc = id && plan ? plan.markdown.read(id) : null;
    editor.hidden = !doc;
    if (doc) {
      title.value = doc.title;
      content.value = doc.content;
    }
    draft.hidden = !(run && run.id === id && run.text !== '');
    renderList();
  };

  const renderList = (): void => {
    const docs = plan?.markdown.list() ?? [];
    list.replaceChildren(
      ...docs.map((doc) => {
        const item = document.createElement('li');
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = doc.title;
        button.dataset.id = doc.id;
        button.setAttribute('aria-current', String(doc.id === selected));
        button.addEventListener('click', () => show(doc.id));
        item.append(button);
        return item;
      }),
    );
    if (docs.length === 0) {
      const empty = document.createElement('li');
      empty.className = 'hint';
      empty.textContent = words().none;
      list.append(empty);
    }
    sample.textContent = words().sample(
      TOUR_HANDBOOK_TITLE,
      docs.some((doc) => doc.title === TOUR_HANDBOOK_TITLE),
    );
  };

  /** Puts the stored note into the editor, keeping the caret where it was relative to the text around it. */
  const refreshEditor = (doc: MarkdownDoc): void => {
    title.value = doc.title;
    const old = content.value;
    if (old === doc.content) return;
    const { selectionStart, selectionEnd, scrollTop } = content;
    const at = caretMapper(old, doc.content);
    content.value = doc.content;
    content.scrollTop = scrollTop;
    if (document.activeElement === content) content.setSelectionRange(at(selectionStart), at(selectionEnd));
  };

  /**
   * Shows the model's draft: the note as it forms (the preview), the changed part marked, and,
   * unless the answer is the whole note, the answer itself as it streams (a single edit block
   * changes the preview only once it is complete). After a conflict: the model's version alone.
   */
  const drawDraft = (current: Run, answer = true): void => {
    cancelAnimationFrame(drawing);
    drawing = 0;
    if (current.id !== selected) return;
    draft.hidden = false;
    draftText.hidden = current.preview === undefined;
    if (current.preview !== undefined) {
      const { before, changed, after } = splitChange(current.base.content, current.preview);
      const mark = document.createElement('mark');
      mark.textContent = changed;
      draftText.replaceChildren(document.createTextNode(before), mark, document.createTextNode(after));
      // Scroll the draft (not the page) to the change: in a long note it is one paragraph among many.
      if (changed) draftText.scrollTop += mark.getBoundingClientRect().top - draftText.getBoundingClientRect().top - 24;
    }
    const raw = answer && (current.form !== 'rewrite' || current.preview === undefined);
    answerLabel.hidden = answerText.hidden = !raw;
    if (raw) {
      answerLabel.textContent = words().answerSoFar(current.text.length, current.base.content.length);
      answerText.textContent = current.text;
      answerText.scrollTop = answerText.scrollHeight;
    }
    // Once per edit, and not while the user types in the note: the guide column scrolls, and the
    // draft is below the editor.
    if (!current.shown && document.activeElement !== content) draft.scrollIntoView({ block: 'nearest' });
    current.shown = true;
  };

  const hideDraft = (): void => {
    cancelAnimationFrame(drawing);
    drawing = 0;
    draft.hidden = true;
  };

  const busy = (on: boolean): void => {
    apply.hidden = on;
    stop.hidden = !on;
  };

  $<HTMLButtonElement>('#note-new').addEventListener('click', () => {
    if (!plan) return;
    const doc = plan.markdown.create({ title: words().newTitle(plan.markdown.list().length + 1), content: '' });
    show(doc.id);
    title.focus();
    title.select();
  });

  sample.addEventListener('click', () => {
    if (!plan) return;
    const doc =
      plan.markdown.list().find((item) => item.title === TOUR_HANDBOOK_TITLE) ?? plan.markdown.create({ title: TOUR_HANDBOOK_TITLE, content: TOUR_HANDBOOK });
    show(doc.id);
    if (!instruction.value.trim()) instruction.value = 'In the refunds paragraph, replace "14 days" with "30 days"';
    status.textContent = words().sampleStatus(doc.content.length);
  });

  content.addEventListener('input', () => {
    saveTyping();
    // The change shown after an edit is about the text as it was then.
    if (!run) hideDraft();
  });
  title.addEventListener('input', saveTyping);

  editor.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!plan || !selected) return;
    try {
      plan.markdown.edit(selected, { title: title.value, content: content.value });
      status.textContent = words().saved;
    } catch (error) {
      status.textContent = (error as Error).message;
    }
  });

  $<HTMLButtonElement>('#note-delete').addEventListener('click', () => {
    if (!plan || !selected) return;
    plan.markdown.delete(selected);
    status.textContent = words().deleted;
    show(null);
  });

  // Enter in the instruction applies it (the form's own submit is Save).
  instruction.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    void edit();
  });
  apply.addEventListener('click', () => void edit());
  stop.addEventListener('click', () => run?.controller.abort());

  async function edit(): Promise<void> {
    if (run || !plan || !selected) return;
    const what = instruction.value.trim();
    if (!what) {
      status.textContent = words().noInstruction;
      instruction.focus();
      return;
    }
    // Keep unsaved typing: the model edits what is in the editor, not an older version.
    try {
      saveEditor();
    } catch (error) {
      status.textContent = words().cannotEdit((error as Error).message);
      return;
    }
    const base = plan.markdown.read(selected) as MarkdownDoc;
    const current: Run = {
      id: base.id,
      controller: new AbortController(),
      base,
      text: '',
      preview: undefined,
      form: undefined,
      attempt: 1,
      concurrent: false,
      shown: false,
    };
    // A short note is always rewritten whole; a long one is edited in place unless the instruction
    // asks for a rewrite, which shows once the answer starts.
    if (base.content.length < EDITS_MIN_CHARS) current.form = 'rewrite';
    run = current;
    busy(true);
    draftLabel.textContent = words().draftLabel;
    status.textContent = current.form === 'rewrite' ? words().rewriting : words().asking;
    try {
      const doc = await plan.markdown.editWithInstruction(current.id, what, {
        signal: current.controller.signal,
        onDelta: ({ text, preview, attempt }) => follow(current, text, preview, attempt),
      });
      instruction.value = '';
      hideDraft();
      if (!doc) status.textContent = words().gone;
      else {
        status.textContent = outcome(current, doc, words());
        if (selected === current.id) refreshEditor(doc);
        // Show where the change is (in a long note, far from the editor's first lines): the
        // model's own version when it streamed one, so that what the user typed is not marked.
        if (current.preview === undefined || !current.concurrent) current.preview = doc.content;
        draftLabel.textContent = words().changeLabel;
        if (current.preview !== current.base.content) drawDraft(current, false);
      }
    } catch (error) {
      status.textContent = failure(current, error, words());
      // After a conflict the model's version stays in view; otherwise the draft goes.
      hideDraft();
      if (error instanceof ConflictError && current.preview !== undefined) {
        draftLabel.textContent = words().versionLabel;
        drawDraft(current, false);
      }
    } finally {
      if (run === current) run = null;
      busy(false);
    }
  }

  /** Follows the answer as it streams: the draft, and the status once the answer's form shows. */
  function follow(current: Run, text: string, preview: string | undefined, attempt: number): void {
    if (attempt !== current.attempt) {
      current.attempt = attempt;
      current.preview = undefined;
      status.textContent = words().retrying;
    }
    current.text = text;
    const form = /^\s*<{5,9}\s*SEARCH\b/im.test(text) ? 'edits' : /^[\s*_`>]*-{2,}\s*document\s+start\s*-{2,}/im.test(text) ? 'rewrite' : current.form;
    if (form !== current.form || (attempt > 1 && current.preview === undefined && preview !== undefined)) {
      status.textContent = form === 'edits' ? words().editing : words().rewriting;
    }
    current.form = form;
    if (preview !== undefined) current.preview = preview;
    if (!drawing) drawing = requestAnimationFrame(() => drawDraft(current));
  }

  return {
    setPlan(next) {
      for (const off of offs) off();
      run?.controller.abort();
      run = null;
      busy(false);
      hideDraft();
      plan = next;
      offs = [
        plan.markdown.onChange(({ change, docs }) => {
          if (change.type === 'hydrate' && !selected) show(docs[0]?.id ?? null);
          else if (selected && !plan?.markdown.read(selected)) show(null);
          else renderList();
        }),
        // A change to the note that is not the model's own commit, while the model works: the
        // user typing (saved as typed), or another tab. The model's edit is merged onto it.
        plan.on('state-change', ({ state, previous, origin }) => {
          if (!run || origin === 'edit') return;
          const id = run.id;
          const now = state.docs.find((doc) => doc.id === id);
          const before = previous.docs.find((doc) => doc.id === id);
          if (now?.content !== before?.content || now?.title !== before?.title) run.concurrent = true;
        }),
      ];
      show(plan.markdown.list()[0]?.id ?? null);
    },
    refresh: renderList,
  };
}

/** What the model did, said plainly: edits in place or a rewrite, and whether it was merged with typing. */
function outcome(run: Run, doc: MarkdownDoc, words: DemoWords['notes']): string {
  const blocks = run.text.match(/^\s*>{5,9}\s*REPLACE\b/gim)?.length ?? 0;
  const merged = run.concurrent ? words.merged : '';
  const renamed = doc.title !== run.base.title;
  if (blocks > 0) return words.editedInPlace(blocks, words.size(run.text.length, run.base.content.length), renamed, merged);
  // An answer of only a `Title:` line renames and leaves the text alone.
  if (renamed && /^\s*title\s*:[^\n]*$/i.test(run.text.trim())) return words.renamedOnly(merged);
  if (!run.concurrent && doc.content === run.base.content) return words.unchanged(renamed);
  return words.rewritten(merged);
}

/** Why nothing of the model's edit was stored. */
function failure(run: Run, error: unknown, words: DemoWords['notes']): string {
  const edit = run.form === 'edits' || (run.form === undefined && run.base.content.length >= EDITS_MIN_CHARS);
  const code = (error as { code?: string }).code;
  if (code === 'aborted') return words.cancelled(edit, run.concurrent ? words.keptYours : words.keptNote);
  if (error instanceof EditError && error.code === 'edit_refused') return words.declined(clip(error.raw.trim(), 320));
  if (error instanceof ConflictError) {
    if (error.conflicts.length === 0) return words.deletedMeanwhile;
    const where = error.conflicts.map((conflict) => (conflict.field === 'title' ? words.whereTitle : words.whereLine(conflict.line ?? 0))).join(', ');
    return words.conflict(where, run.preview !== undefined);
  }
  return words.failed(edit, (error as Error).message);
}

/** `before` and `after`: what `next` shares with `base` at its start and end; `changed`: the rest of `next`. */
function splitChange(base: string, next: string): { before: string; changed: string; after: string } {
  let start = 0;
  while (start < base.length && start < next.length && base[start] === next[start]) start++;
  let end = 0;
  while (end < base.length - start && end < next.length - start && base[base.length - 1 - end] === next[next.length - 1 - end]) end++;
  return { before: next.slice(0, start), changed: next.slice(start, next.length - end), after: next.slice(next.length - end) };
}

/** Maps a caret position in `old` to `next`: unchanged before the change, shifted after it. */
function caretMapper(old: string, next: string): (at: number) => number {
  const { before, after } = splitChange(old, next);
  return (at) => (at <= before.length ? at : at >= old.length - after.length ? at + next.length - old.length : next.length - after.length);
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
