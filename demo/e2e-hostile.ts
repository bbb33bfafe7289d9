// The page behind e2e/hostile-page.spec.ts: planloop/dom wired as the README shows a host's tools
// (outline with the guide excluded, click through activate, fill through fill), and a record of
// every handler the page's hostile elements ran.
import * as dom from 'planloop/dom';

declare global {
  interface Window {
    hits: string[];
    hit: (name: string) => void;
    submits: string[];
    asked: Array<{ risk: string; detail: string; url?: string }>;
    /** What the user answers when a click asks (the test sets it). */
    answer: boolean;
    planloopDom: typeof dom;
    outlineText: () => string;
    clickTool: (target: string) => Promise<unknown>;
    fillTool: (target: string, value: string) => Promise<unknown>;
  }
}

window.hits = [];
window.hit = (name) => window.hits.push(name);
window.submits = [];
window.asked = [];
window.answer = false;
window.planloopDom = dom;
document.addEventListener('submit', (event) => {
  window.submits.push((event.target as HTMLFormElement).id);
  event.preventDefault();
});

const exclude = '#guide';
window.outlineText = () => dom.renderOutline(dom.outlinePage({ exclude, maxTokens: 2000 }));
window.clickTool = (target) =>
  dom.activate(target, {
    exclude,
    confirm: async (step) => {
      window.asked.push(step);
      return { approved: window.answer };
    },
  });
window.fillTool = (target, value) => dom.fill(target, value, { exclude, secrets: { password: 'the-real-password' } });

// Remember the password field before any "show password" click.
dom.rememberPasswordFields(document);
document.body.dataset.ready = 'true';
