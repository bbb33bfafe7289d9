// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isElementVisible } from '../../src/dom/index.js';

describe('isElementVisible', () => {
  it('looks at the element and everything it is rendered inside', () => {
    document.body.innerHTML = `
      <button id="shown">a</button>
      <div style="display:none"><button id="none">b</button></div>
      <div aria-hidden="true"><div><button id="aria">c</button></div></div>
      <div inert><button id="inert">d</button></div>
      <button id="ghost" style="visibility:hidden">e</button>
      <details><summary id="summary">f</summary><button id="folded">g</button></details>
      <dialog><button id="dialog">h</button></dialog>`;
    const visible = (id: string) => isElementVisible(document.getElementById(id) as Element);
    expect(visible('shown')).toBe(true);
    expect(visible('summary')).toBe(true);
    for (const id of ['none', 'aria', 'inert', 'ghost', 'folded', 'dialog']) expect(visible(id), id).toBe(false);
    const detached = document.createElement('button');
    expect(isElementVisible(detached)).toBe(false);
  });

  it('follows slots out of shadow roots; an unslotted child is not rendered', () => {
    document.body.innerHTML = '<x-card id="host"><button id="slotted" slot="a">in</button><button id="unslotted">out</button></x-card>';
    const host = document.getElementById('host') as HTMLElement;
    host.attachShadow({ mode: 'open' }).innerHTML = '<div hidden><slot name="b"></slot></div><slot name="a"></slot>';
    expect(isElementVisible(document.getElementById('slotted') as Element)).toBe(true);
    expect(isElementVisible(document.getElementById('unslotted') as Element)).toBe(false);
  });
});
