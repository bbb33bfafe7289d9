// The page behind e2e/hostile-page.spec.ts: planloop/dom wired as the README shows a host's tools
// (outline with the guide excluded, click through activate, fill through fill), and a record of
// every handler the page's hostile elements ran. Everything is on window.__hostilePage.
import * as dom from 'planloop/dom';

interface HostilePage {
  hits: string[];
  hit: (name: string) => void;
  submits: string[];
  asked: Array<{ risk: string; detail: string; url?: string }>;
  /** What the user answers when a click asks (the test sets it). */
  answer: boolean;
  dom: typeof dom;
  outlineText: () => string;
  clickTool: (target: string) => Promise<unknown>;
  fillTool: (target: string, value: string) => Promise<unknown>;
}

declare global {
  interface Window {
    __hostilePage: HostilePage;
  }
}

const exclude = '#guide';
const state: HostilePage = {
  hits: [],
  hit: (name) => state.hits.push(name),
  submits: [],
  asked: [],
  answer: false,
  dom,
  outlineText: () => dom.renderOutline(dom.outlinePage({ exclude, maxTokens: 2000 })),
  clickTool: (target) =>
    dom.activate(target, {
      exclude,
      confirm: async (step) => {
        state.asked.push(step);
        return { approved: state.answer };
      },
    }),
  fillTool: (target, value) => dom.fill(target, value, { exclude, secrets: { password: 'the-real-password' } }),
};
window.__hostilePage = state;
// A div with a handler added from script: no attribute, role or tabindex tells the outline it acts
// (a div with an onclick attribute is listed as `clickable`, so it is shown and may be clicked).
document.getElementById('never')?.addEventListener('click', () => state.hit('never'));
document.addEventListener('submit', (event) => {
  state.submits.push((event.target as HTMLFormElement).id);
  event.preventDefault();
});

// Remember the password field before any "show password" click.
dom.rememberPasswordFields(document);
document.body.dataset.ready = 'true';
