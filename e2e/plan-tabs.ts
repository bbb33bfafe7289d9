import { resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { expect } from './fixtures.js';
import type { PlanTabOptions } from './browser/plan-tab.js';

/** e2e/browser/plan-tab.ts as the Vite dev server serves a file outside the demo root. */
export const PLAN_TAB_MODULE = `/@fs${resolve('e2e/browser/plan-tab.ts')}`;

/** Opens the storage lab page (a page of the demo server with nothing else on it). */
export async function openBlank(page: Page, query = ''): Promise<void> {
  await page.goto(`/fixtures/storage-lab.html${query}`);
  await expect(page.locator('#status')).toHaveText('ready');
}

/** Puts a plan tab (e2e/browser/plan-tab.ts) on `page` as `window.tab`. */
export async function startPlanTab(page: Page, options: PlanTabOptions): Promise<void> {
  await page.evaluate(
    async ([url, tabOptions]) => {
      const { openPlanTab } = (await import(/* @vite-ignore */ url)) as typeof import('./browser/plan-tab.js');
      window.tab = await openPlanTab(tabOptions);
    },
    [PLAN_TAB_MODULE, options] as const,
  );
}

/** A new page of `context` with a plan tab on it. */
export async function openPlanTab(context: BrowserContext, options: PlanTabOptions): Promise<Page> {
  const page = await context.newPage();
  await openBlank(page);
  await startPlanTab(page, options);
  return page;
}

/**
 * Makes `page` an older tab holding the plan's database open (ignoring versionchange) while it
 * asks for an upgrade: every other open of the database now waits (blocked). `release` ends it.
 */
export async function blockUpgrade(page: Page): Promise<{ release(): Promise<void> }> {
  await page.evaluate(async () => {
    const holder = await new Promise<IDBDatabase>((resolve) => {
      const request = indexedDB.open('planloop');
      request.onsuccess = () => resolve(request.result);
    });
    const upgrade = indexedDB.open('planloop', holder.version + 1);
    const blocked = new Promise((resolve) => (upgrade.onblocked = resolve));
    Object.assign(window, { holder, upgraded: new Promise<IDBDatabase>((resolve) => (upgrade.onsuccess = () => resolve(upgrade.result))) });
    await blocked;
  });
  return {
    release: () =>
      page.evaluate(async () => {
        const win = window as unknown as { holder: IDBDatabase; upgraded: Promise<IDBDatabase> };
        win.holder.close();
        (await win.upgraded).close();
      }),
  };
}

type Report = ReturnType<import('./browser/plan-tab.js').PlanTab['report']>;
type Todo = { id: string; description: string; status: string };
type Conflict = { reason: string; dropped?: { description?: string; status?: string } | null };

/** A todo list as JSON with each object's keys sorted: two tabs may build the same todo in another key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );

/** Waits until every tab has the same todos and nothing left to save, twice in a row 100 ms apart. */
export async function settle(pages: Page[], timeoutMs = 20_000): Promise<Todo[]> {
  const end = Date.now() + timeoutMs;
  let previous = '';
  for (;;) {
    const views = await Promise.all(pages.map((page) => page.evaluate(() => ({ todos: window.tab.todos(), state: window.tab.plan.saveStatus.state }))));
    const json = canonical(views[0]!.todos);
    const steady = views.every((view) => view.state === 'saved' && canonical(view.todos) === json);
    if (steady && json === previous) return views[0]!.todos;
    previous = steady ? json : '';
    if (Date.now() > end) {
      // The first todo the tabs disagree on, as each tab has it: what kept them apart.
      const at = views[0]!.todos.findIndex((todo, index) => views.some((view) => canonical(view.todos[index]) !== canonical(todo)));
      const apart = at < 0 ? '' : `; first difference at ${at}: ${JSON.stringify(views.map((view) => view.todos[at]))}`;
      throw new Error(`tabs did not settle within ${timeoutMs} ms: ${JSON.stringify(views.map((view) => [view.state, view.todos.length]))}${apart}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The fault suite's invariant: every change a tab reported saved is in the final plan (what a
 * tab opened afterwards reads from storage), or a sync conflict said why it is not.
 * - a todo a tab created (`<name>-<i>`) and reported saved is there, whatever its id;
 * - an edit (`… edited`) reported saved is its todo's description, unless a conflict dropped it;
 * - a run todo completed by a committed turn and reported saved is completed, unless a conflict
 *   dropped that completion.
 */
export function checkSavedChanges(reports: Report[], final: Todo[]): { created: number; edits: number; completions: number; conflicts: number } {
  const conflicts = reports.flatMap((report) => report.conflicts as Conflict[]);
  const dropped = (description: string, status?: string) =>
    conflicts.some((conflict) => conflict.dropped?.description === description && (status === undefined || conflict.dropped?.status === status));
  const finalByBase = new Map(final.map((todo) => [todo.description.replace(/ edited$/, ''), todo]));
  const created = new Set<string>();
  const edits = new Set<string>();
  for (const report of reports) {
    for (const list of report.saved) {
      for (const description of list) {
        if (description.startsWith('run ')) continue;
        created.add(description.replace(/ edited$/, ''));
        if (description.endsWith(' edited')) edits.add(description);
      }
    }
  }
  for (const base of created) expect(finalByBase.has(base), `a saved todo "${base}" is in the final plan`).toBe(true);
  for (const edit of edits) {
    if (!dropped(edit)) expect(finalByBase.get(edit.replace(/ edited$/, ''))?.description, `the saved edit "${edit}" is in the final plan`).toBe(edit);
  }
  const completions = new Set(reports.flatMap((report) => report.savedCompletions));
  for (const description of completions) {
    if (dropped(description, 'completed')) continue;
    expect(final.find((todo) => todo.description === description)?.status, `the saved completion of "${description}" is in the final plan`).toBe('completed');
  }
  return { created: created.size, edits: edits.size, completions: completions.size, conflicts: conflicts.length };
}
