// The page behind e2e/storage.spec.ts: a Plan saved to the browser's real storage.
// ?adapter=local (default) uses localStorage, ?adapter=idb uses IndexedDB; the test drives the
// plan through window.__plan and checks what a reload brings back.
import { Plan, createIndexedDbAdapter, createLocalStorageAdapter } from 'planloop';

declare global {
  interface Window {
    __plan?: Plan;
  }
}

const key = 'planloop-e2e';
const adapter = new URLSearchParams(location.search).get('adapter') ?? 'local';
const storage = adapter === 'idb' ? createIndexedDbAdapter({ key }) : createLocalStorageAdapter({ key });

const plan = new Plan({ storage });
plan.attachTo({});

const status = document.getElementById('status');
const view = document.getElementById('plan');
const render = () => {
  if (view) view.textContent = JSON.stringify({ todos: plan.todos.list(), markdownDocs: plan.markdown.list() }, null, 2);
};

await plan.ready;
plan.todos.onChange(render);
plan.markdown.onChange(render);
render();
if (status) status.textContent = `ready (${adapter})`;
window.__plan = plan;
