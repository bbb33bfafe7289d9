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

  const show = (id: string | null): void => {
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
    if (!plan || !selected || busy) return;
    const what = instruction.value.trim();
    if (!what) {
      status.textContent = 'Write an instruction first, e.g. "Make it a bulleted list".';
      instruction.focus();
      return;
    }
    const id = selected;
    // Keep unsaved typing: the model rewrites what is in the editor, not an older version.
    plan.markdown.edit(id, { title: title.value, content: content.value });
    busy = new AbortController();
    rewrite.disabled = true;
    status.textContent = 'Rewriting with the model…';
    try {
      const doc = await plan.markdown.editWithInstruction(id, what, { signal: busy.signal });
      status.textContent = doc ? 'Rewritten by the model.' : 'That note no longer exists.';
      instruction.value = '';
      if (selected === id) show(id);
    } catch (error) {
      status.textContent = `The rewrite failed: ${(error as Error).message}`;
    } finally {
      busy = null;
      rewrite.disabled = false;
    }
  });

  return {
    setPlan(next) {
      off?.();
      busy?.abort();
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
