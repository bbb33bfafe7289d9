// The notes panel: the plan's markdown artifact as a tiny editor. Create, edit, delete, and
// "edit with instruction", which asks the model to rewrite the note (plan.markdown.editWithInstruction).
// Titles and contents are shown through textContent and form values only.

import type { Plan, Unsubscribe } from 'planloop';

export interface NotesPanel {
  setPlan(plan: Plan): void;
}

export function createNotesPanel(root: HTMLElement): NotesPanel {
  const $ = <T extends HTMLElement>(selector: string): T => root.querySelector(selector) as T;
  const list = $<HTMLUListElement>('#notes-list');
  const editor = $<HTMLFormElement>('#note-editor');
  const title = $<HTMLInputElement>('#note-title');
  const content = $<HTMLTextAreaElement>('#note-content');
  const instruction = $<HTMLInputElement>('#note-instruction');
  const rewrite = $<HTMLButtonElement>('#note-rewrite');
  const status = $<HTMLParagraphElement>('#note-status');
  let plan: Plan | null = null;
  let off: Unsubscribe | null = null;
  let selected: string | null = null;
  let busy: AbortController | null = null;

  /** Saves what is in the editor when it differs from the stored note; throws the edit's error. */
  const saveEditor = (): void => {
    const doc = selected && plan ? plan.markdown.read(selected) : null;
    if (!plan || !doc || (doc.title === title.value && doc.content === content.value)) return;
    plan.markdown.edit(doc.id, { title: title.value, content: content.value });
  };

  const show = (id: string | null): void => {
    // Leaving a note keeps what was typed in it (a title left empty cannot be saved: that edit is dropped).
    if (id !== selected) {
      try {
        saveEditor();
      } catch {
        // An invalid edit (empty title) stays unsaved, as Save would have refused it.
      }
    }
    selected = id;
    const doc = id && plan ? plan.markdown.read(id) : null;
    editor.hidden = !doc;
    if (doc) {
      title.value = doc.title;
      content.value = doc.content;
    }
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
      empty.textContent = 'No notes yet.';
      list.append(empty);
    }
  };

  $<HTMLButtonElement>('#note-new').addEventListener('click', () => {
    if (!plan) return;
    const doc = plan.markdown.create({ title: `Note ${plan.markdown.list().length + 1}`, content: '' });
    show(doc.id);
    title.focus();
    title.select();
  });

  editor.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!plan || !selected) return;
    try {
      plan.markdown.edit(selected, { title: title.value, content: content.value });
      status.textContent = 'Saved.';
    } catch (error) {
      status.textContent = (error as Error).message;
    }
  });

  $<HTMLButtonElement>('#note-delete').addEventListener('click', () => {
    if (!plan || !selected) return;
    plan.markdown.delete(selected);
    status.textContent = 'Deleted.';
    show(null);
  });

  rewrite.addEventListener('click', async () => {
    // While the model works, the button cancels the rewrite (a slow or stuck endpoint must not
    // leave the note locked).
    if (busy) {
      busy.abort();
      return;
    }
    if (!plan || !selected) return;
    const what = instruction.value.trim();
    if (!what) {
      status.textContent = 'Write an instruction first, e.g. "Make it a bulleted list".';
      instruction.focus();
      return;
    }
    const id = selected;
    // Keep unsaved typing: the model rewrites what is in the editor, not an older version.
    try {
      saveEditor();
    } catch (error) {
      status.textContent = `Cannot rewrite yet: ${(error as Error).message}`;
      return;
    }
    const controller = new AbortController();
    busy = controller;
    rewrite.textContent = 'Cancel rewrite';
    status.textContent = 'Rewriting with the model…';
    try {
      const doc = await plan.markdown.editWithInstruction(id, what, { signal: controller.signal });
      status.textContent = doc ? 'Rewritten by the model.' : 'That note no longer exists.';
      instruction.value = '';
      if (selected === id) {
        selected = null; // show the rewrite, not the editor's older text
        show(id);
      }
    } catch (error) {
      const cancelled = (error as { code?: string }).code === 'aborted';
      status.textContent = cancelled ? 'Rewrite cancelled; the note is unchanged.' : `The rewrite failed: ${(error as Error).message}`;
    } finally {
      if (busy === controller) {
        busy = null;
        rewrite.textContent = 'Rewrite';
      }
    }
  });

  return {
    setPlan(next) {
      off?.();
      busy?.abort();
      busy = null;
      rewrite.textContent = 'Rewrite';
      plan = next;
      off = plan.markdown.onChange(({ change, docs }) => {
        if (change.type === 'hydrate' && !selected) show(docs[0]?.id ?? null);
        else if (selected && !plan?.markdown.read(selected)) show(null);
        else renderList();
      });
      show(plan.markdown.list()[0]?.id ?? null);
    },
  };
}
