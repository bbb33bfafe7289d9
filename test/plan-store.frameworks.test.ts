// @vitest-environment happy-dom
/**
 * The store contract in the three frameworks, as the README shows it: a real React 19 component
 * (Testing Library), a Svelte 5 component compiled here with svelte/compiler, and a Vue 3
 * component, each rendering a plan that changes under it, and letting go of it when unmounted.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createElement, useSyncExternalStore } from 'react';
import { compile } from 'svelte/compiler';
import type * as Svelte from 'svelte';
import { createApp, defineComponent, h, nextTick, type PropType } from 'vue';
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
 * A README block as written, in a module of its own beside this file (its imports of react and vue
 * resolve as an app's would; `Plan` is the type the README leaves to the reader).
 */
async function importReadmeBlock<T>(heading: string, lang: 'ts' | 'tsx', exports: readonly string[]): Promise<T> {
  const file = here(`readme-${lang}-${process.pid}-${heading.replace(/\W/g, '')}.tmp.${lang}`);
  const code = readmeBlock(heading, lang);
  writeFileSync(file, `import type { Plan } from '../src/plan.js';\n${code}\n${exports.length > 0 ? `export { ${exports.join(', ')} };\n` : ''}`);
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
    const { TodoList } = await importReadmeBlock<{ TodoList: (props: { plan: Plan }) => ReturnType<typeof createElement> }>('### React', 'tsx', ['TodoList']);
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

describe('Vue 3: a shallowRef set from plan.subscribe', () => {
  it('renders the plan and follows its changes; unmounting unsubscribes', async () => {
    const { plan, change } = changingPlan();
    const live = countListeners(plan);
    const { usePlanState } = await importReadmeBlock<{ usePlanState: (plan: Plan) => { value: Plan['state'] } }>('### Vue', 'ts', []);
    const TodoList = defineComponent({
      props: { plan: { type: Object as PropType<Plan>, required: true } },
      setup(props) {
        const state = usePlanState(props.plan);
        return () => h('ul', state.value.todos.map((todo) => h('li', { key: todo.id }, `${todo.status}: ${todo.description}`)));
      },
    });
    const target = document.createElement('div');
    document.body.append(target);
    const app = createApp(TodoList, { plan });
    app.mount(target);
    expect(items()).toEqual(['pending: Open pricing', 'pending: Explain the tiers']);
    change();
    await nextTick();
    expect(items()).toEqual(['completed: Open pricing', 'pending: Explain the tiers', 'pending: Start a trial']);
    expect(live()).toBe(1);
    app.unmount();
    expect(live()).toBe(0);
    target.remove();
  });
});
