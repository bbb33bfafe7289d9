// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { isElementVisible, outlinePage, renderOutline } from '../../src/dom/index.js';
import { duringReadPass, passCached, passShared, passStyle } from '../../src/dom/read-pass.js';

describe('duringReadPass', () => {
  it('keeps an answer per element and table for the pass only; outside a pass nothing is kept', () => {
    const element = document.createElement('div');
    let computed = 0;
    const ask = () => passCached('test', element, () => (computed += 1));
    ask();
    ask();
    expect(computed).toBe(2);
    duringReadPass(() => {
      expect(ask()).toBe(3);
      expect(ask()).toBe(3);
      expect(passCached('other table', element, () => 'apart')).toBe('apart');
      // A pass inside a pass is the outer one.
      duringReadPass(() => expect(ask()).toBe(3));
    });
    expect(ask()).toBe(4);
    expect(computed).toBe(4);
  });

  it('ends when what it runs throws, and shares one value per key', () => {
    let made = 0;
    expect(() =>
      duringReadPass(() => {
        expect(passShared('checker', () => (made += 1))).toBe(1);
        expect(passShared('checker', () => (made += 1))).toBe(1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(passShared('checker', () => (made += 1))).toBe(2);
    const element = document.createElement('p');
    let read = 0;
    const style = () => {
      read += 1;
      return undefined;
    };
    duringReadPass(() => {
      passStyle(element, style);
      passStyle(element, style);
    });
    passStyle(element, style);
    expect(read).toBe(2);
  });

  it('keeps nothing from one outline to the next: a change between outlines shows', () => {
    document.body.innerHTML =
      '<main><h1 id="title">Plans</h1><button id="buy">Buy</button><p id="intro">Plans for teams of every size, billed monthly or yearly.</p></main>';
    expect(renderOutline(outlinePage())).toContain('button "Buy"');
    (document.getElementById('buy') as HTMLElement).style.display = 'none';
    (document.getElementById('title') as HTMLElement).setAttribute('aria-hidden', 'true');
    const text = renderOutline(outlinePage());
    expect(text).not.toContain('Buy');
    expect(text).not.toContain('h1');
    expect(text).toContain('Plans for teams');
    // Outside an outline, the visibility checks read the page afresh.
    const intro = document.getElementById('intro') as HTMLElement;
    expect(isElementVisible(intro)).toBe(true);
    intro.hidden = true;
    expect(isElementVisible(intro)).toBe(false);
  });
});
