// @vitest-environment happy-dom
/**
 * The store contract in the three frameworks, as the README shows it: a real React 19 component
 * (Testing Library), a Svelte 5 component compiled here with svelte/compiler, and a Vue 3
 * single-file component and its composable, compiled here with vue/compiler-sfc, each rendering a
 * plan that changes under it, and letting go of it when unmounted. The README's TypeScript blocks
 * are type-checked too (test/readme-code.test.ts).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { compile } from 'svelte/compiler';
import type * as Svelte from 'svelte';
import { createApp, nextTick, type Component } from 'vue';
import { compileScript, parse } from 'vue/compiler-sfc';
import { afterEach, describe, expect, it } from 'vitest';
import { Plan } from '../src/plan.js';

// In a DOM environment import.meta.url is no file URL: paths start at the repository root (vitest's root).
const here = (name: string) => join(process.cwd(), 'test', name);

/** The first ```lang block after the README heading (the whole line): the text a reader copies. */
function readmeBlock(heading: string, lang: string): string {
  const text = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const after = text.slice(text.indexOf(`\n${heading}\n`));
  const code = after.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``))?.[1];
  if (!after.startsWith('\n') || code === undefined) throw new Error(`README.md has no \`\`\`${lang} block after "${heading}"`);
  return code;
}

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
afterEach(() => cleanup());

/**
 * A README block as written, in a module of its own beside this file (its imports of react, vue
 * and planloop resolve as an app's would, planloop through the vitest aliases to src/).
 */
async function importReadmeBlock<T>(heading: string, lang: 'ts' | 'tsx'): Promise<T> {
  const file = here(`readme-${lang}-${process.pid}-${heading.replace(/\W/g, '')}.tmp.${lang}`);
  writeFileSync(file, readmeBlock(heading, lang));
  try {
    return (await import(/* @vite-ignore */ file)) as T;
  } finally {
    rmSync(file, { force: true });
  }
}

const items = () => Array.from(document.querySelectorAll('li'), (li) => li.textContent);

/** A plan the tests change: two todos, then one completed, one rewritten, one added. */
function changingPlan() {
  const plan = new Plan();
  const [first] = plan.todos.createMany([
    { intent: 'navigate', description: 'Open pricing' },
    { intent: 'narrate', description: 'Explain the tiers' },
  ]);
  return {
    plan,
    change() {
      plan.adjust({ remove: [first!.id] });
      plan.todos.create({ intent: 'click', description: 'Start a trial' });
    },
  };
}

/** How many listeners the plan has for state changes: subscribes and unsubscribes leave none behind. */
function countListeners(plan: Plan) {
  let live = 0;
  const subscribe = plan.subscribe;
  Object.defineProperty(plan, 'subscribe', {
    value: (listener: Parameters<Plan['subscribe']>[0]) => {
      live += 1;
      const stop = subscribe(listener);
      return () => {
        live -= 1;
        stop();
      };
    },
  });
  return () => live;
}

describe('React 19: useSyncExternalStore(plan.subscribe, plan.getSnapshot)', () => {
  it('renders the plan, re-renders once per change, never loops, and unsubscribes on unmount', async () => {
    const { plan, change } = changingPlan();
    const live = countListeners(plan);
    const { TodoList } = await importReadmeBlock<{ TodoList: (props: { plan: Plan }) => ReturnType<typeof createElement> }>('### React', 'tsx');
    let renders = 0;
    const Counted = (props: { plan: Plan }) => {
      renders += 1;
      return TodoList(props);
    };
    const view = render(createElement(Counted, { plan }));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['pending: Open pricing', 'pending: Explain the tiers']);
    const before = renders;
    act(() => change());
    expect(items()).toEqual(['completed: Open pricing', 'pending: Explain the tiers', 'pending: Start a trial']);
    expect(renders - before).toBeLessThanOrEqual(2);
    expect(live()).toBe(1);
    view.unmount();
    expect(live()).toBe(0);
  });
});

describe('Svelte 5: the plan is a store ($plan)', () => {
  it('renders the plan and follows its changes; unmounting unsubscribes', async () => {
    const { plan, change } = changingPlan();
    const live = countListeners(plan);
    const source = readmeBlock('### Svelte', 'svelte');
    const { js } = compile(source, { generate: 'client', filename: 'TodoList.svelte' });
    const file = here(`todo-list-${process.pid}.tmp.js`);
    writeFileSync(file, js.code);
    try {
      // svelte's package resolves to its server build outside a browser; the compiled component uses the client one.
      const clientEntry = join(process.cwd(), 'node_modules/svelte/src/index-client.js');
      const { flushSync, mount, unmount } = (await import(/* @vite-ignore */ clientEntry)) as typeof Svelte;
      const { default: TodoList } = (await import(/* @vite-ignore */ file)) as { default: Parameters<typeof Svelte.mount>[0] };
      const target = document.createElement('div');
      document.body.append(target);
      const component = mount(TodoList, { target, props: { plan } });
      flushSync();
      expect(items()).toEqual(['pending: Open pricing', 'pending: Explain the tiers']);
      change();
      flushSync();
      expect(items()).toEqual(['completed: Open pricing', 'pending: Explain the tiers', 'pending: Start a trial']);
      expect(live()).toBe(1);
      await unmount(component);
      expect(live()).toBe(0);
      target.remove();
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe("Vue 3: the README's component, a shallowRef set from plan.subscribe", () => {
  it('compiles the single-file component, renders the plan and follows its changes; unmounting unsubscribes', async () => {
    const { plan, change } = changingPlan();
    const live = countListeners(plan);
    // The composable as the README's use-plan-state.ts, and the component that imports it, compiled
    // as Vite's Vue plugin compiles it (script setup, the template inlined into it).
    const composable = here(`use-plan-state-${process.pid}.tmp.ts`);
    const component = here(`todo-list-${process.pid}.tmp.ts`);
    writeFileSync(composable, readmeBlock('### Vue', 'ts'));
    const { descriptor, errors } = parse(readmeBlock('### Vue', 'vue'), { filename: 'TodoList.vue' });
    expect(errors).toEqual([]);
    const script = compileScript(descriptor, { id: 'todo-list', inlineTemplate: true });
    writeFileSync(component, script.content.replace(`from './use-plan-state'`, `from './${composable.split('/').pop()!.replace(/\.ts$/, '.js')}'`));
    try {
      const { default: TodoList } = (await import(/* @vite-ignore */ component)) as { default: Component };
      const target = document.createElement('div');
      document.body.append(target);
      const errorsSeen: unknown[] = [];
      const app = createApp(TodoList, { plan });
      app.config.errorHandler = (error) => void errorsSeen.push(error);
      app.mount(target);
      expect(errorsSeen).toEqual([]);
      expect(items()).toEqual(['pending: Open pricing', 'pending: Explain the tiers']);
      change();
      await nextTick();
      expect(items()).toEqual(['completed: Open pricing', 'pending: Explain the tiers', 'pending: Start a trial']);
      expect(live()).toBe(1);
      app.unmount();
      expect(live()).toBe(0);
      expect(errorsSeen).toEqual([]);
      target.remove();
    } finally {
      rmSync(composable, { force: true });
      rmSync(component, { force: true });
    }
  });
});
