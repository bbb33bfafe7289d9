// @vitest-environment happy-dom
/**
 * A run is a store in the same sense as the plan (test/plan-store.frameworks.test.ts): a React 19
 * component with useSyncExternalStore, a Svelte 5 component reading `$run`, and a Vue 3 component
 * with a shallowRef, each following a real run (scripted models) from its start to its end without
 * glue, and letting go of it when unmounted.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, render } from '@testing-library/react';
import { createElement, useSyncExternalStore } from 'react';
import { compile } from 'svelte/compiler';
import type * as Svelte from 'svelte';
import { createApp, defineComponent, h, nextTick, onUnmounted, shallowRef, type PropType } from 'vue';
import { afterEach, describe, expect, it } from 'vitest';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import type { Run, RunState } from '../../src/loop/run-state.js';
import { startRun } from '../../src/loop/start-run.js';
import { Plan } from '../../src/plan.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
afterEach(() => cleanup());

/** A run held at the announcement until `go()`; it then plays two turns and finishes. */
function heldRun() {
  const model = createScriptedProvider([
    { todo: 't1', actions: [{ type: 'narrate', text: 'Pricing.' }] },
    {
      todo: 't2',
      last: true,
      actions: [
        { type: 'narrate', text: 'Three tiers.' },
        { type: 'task_finish', summary: 'Toured.' },
      ],
    },
  ]);
  const planner = createScriptedProvider([{ task_summary: 'A tour', todos: ['Open pricing', 'Explain the tiers'] }]);
  const plan = new Plan({ llm: createLLMRouter({ default: model, plan: planner }) });
  let go!: () => void;
  const waiting = new Promise<void>((resolve) => (go = resolve));
  const run = startRun(plan, { task: 'Tour', start: { announce: () => waiting.then(() => true) } });
  let live = 0;
  const subscribe = run.subscribe;
  const counted: Run = {
    ...run,
    on: run.on,
    answer: run.answer,
    stop: run.stop,
    get state() {
      return run.state;
    },
    subscribe: (listener) => {
      live += 1;
      const stop = subscribe(listener);
      return () => {
        live -= 1;
        stop();
      };
    },
  };
  return {
    run: counted,
    go,
    live: () => live,
    announced: async () => {
      while (run.state.phase !== 'announcing') await new Promise((resolve) => setTimeout(resolve, 2));
    },
  };
}

const line = (state: RunState) => `${state.phase} ${state.turn}/${state.maxTurns}${state.end ? ` ${state.end.reason}` : ''}`;
const shown = () => document.querySelector('p')?.textContent;

describe('React 19: useSyncExternalStore(run.subscribe, run.getSnapshot)', () => {
  it('renders the run as it goes, and unsubscribes on unmount', async () => {
    const { run, go, live, announced } = heldRun();
    const RunLine = ({ run: source }: { run: Run }) => createElement('p', null, line(useSyncExternalStore(source.subscribe, source.getSnapshot)));
    await announced();
    const view = render(createElement(RunLine, { run }));
    expect(shown()).toBe('announcing 0/0');
    await act(async () => {
      go();
      await run.result;
    });
    expect(shown()).toBe('finished 2/4 task_finish');
    expect(live()).toBe(1);
    view.unmount();
    expect(live()).toBe(0);
  });
});

describe('Svelte 5: the run is a store ($run)', () => {
  it('renders the run and follows it; unmounting unsubscribes', async () => {
    const { run, go, live, announced } = heldRun();
    const source = "<script>\n  let { run } = $props();\n</script>\n\n<p>{$run.phase} {$run.turn}/{$run.maxTurns}{$run.end ? ` ${$run.end.reason}` : ''}</p>\n";
    const { js } = compile(source, { generate: 'client', filename: 'RunLine.svelte' });
    const file = join(process.cwd(), 'test', 'loop', `run-line-${process.pid}.tmp.js`);
    writeFileSync(file, js.code);
    try {
      const clientEntry = join(process.cwd(), 'node_modules/svelte/src/index-client.js');
      const { flushSync, mount, unmount } = (await import(/* @vite-ignore */ clientEntry)) as typeof Svelte;
      const { default: RunLine } = (await import(/* @vite-ignore */ file)) as { default: Parameters<typeof Svelte.mount>[0] };
      const target = document.createElement('div');
      document.body.append(target);
      await announced();
      const component = mount(RunLine, { target, props: { run } });
      flushSync();
      expect(shown()).toBe('announcing 0/0');
      go();
      await run.result;
      flushSync();
      expect(shown()).toBe('finished 2/4 task_finish');
      expect(live()).toBe(1);
      await unmount(component);
      expect(live()).toBe(0);
      target.remove();
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('Vue 3: a shallowRef set from run.subscribe', () => {
  it('renders the run and follows it; unmounting unsubscribes', async () => {
    const { run, go, live, announced } = heldRun();
    const RunLine = defineComponent({
      props: { run: { type: Object as PropType<Run>, required: true } },
      setup(props) {
        const state = shallowRef(props.run.getSnapshot());
        onUnmounted(props.run.subscribe((next) => (state.value = next)));
        return () => h('p', line(state.value));
      },
    });
    const target = document.createElement('div');
    document.body.append(target);
    await announced();
    const app = createApp(RunLine, { run });
    app.mount(target);
    expect(shown()).toBe('announcing 0/0');
    go();
    await run.result;
    await nextTick();
    expect(shown()).toBe('finished 2/4 task_finish');
    expect(live()).toBe(1);
    app.unmount();
    expect(live()).toBe(0);
    target.remove();
  });
});
