// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { accessibleName, elementRole } from '../../src/dom/index.js';

const first = (html: string, selector = 'body > *'): Element => {
  document.body.innerHTML = html;
  return document.querySelector(selector) as Element;
};
const name = (html: string, selector?: string): string => {
  const element = first(html, selector);
  return accessibleName(element, elementRole(element));
};

describe('accessibleName', () => {
  it('takes aria-labelledby, then aria-label, then the element’s own labelling, then content, title, placeholder', () => {
    expect(name('<button aria-labelledby="a b">x</button><span id="a">Save</span><span id="b">draft</span>', 'button')).toBe('Save draft');
    expect(name('<button aria-label="Close dialog">×</button>')).toBe('Close dialog');
    expect(name('<label>Email <input id="e"> (work)</label>', 'input')).toBe('Email (work)');
    expect(name('<label for="q">Search</label><input id="q">', 'input')).toBe('Search');
    expect(name('<input type="submit">')).toBe('Submit');
    expect(name('<input type="button" value="Add row">')).toBe('Add row');
    expect(name('<fieldset><legend>Billing</legend><input></fieldset>')).toBe('Billing');
    expect(name('<table><caption>Prices</caption><tr><td>1</td></tr></table>')).toBe('Prices');
    expect(name('<a href="/"><img src="logo.png" alt="Orbitly home"></a>')).toBe('Orbitly home');
    expect(name('<a href="/x" title="Settings"><svg aria-hidden="true"></svg></a>')).toBe('Settings');
    expect(name('<input placeholder="e.g. llama3.2">')).toBe('e.g. llama3.2');
  });

  it('reads visible content only: no aria-hidden, hidden or display:none parts, no script', () => {
    expect(
      name('<a href="/"><span aria-hidden="true">◐</span> Orbitly <span hidden>beta</span><span style="display:none">x</span><script>1</script></a>'),
    ).toBe('Orbitly');
  });

  it('collapses whitespace and bounds the length', () => {
    expect(name('<button>\n  Start\n\n  trial  </button>')).toBe('Start trial');
    expect(name(`<button>${'long '.repeat(100)}</button>`).length).toBeLessThanOrEqual(160);
  });

  it('collapses whitespace before the 160-character cap: indentation does not use it up', () => {
    const indented = `<a href="/zo">${`\n${' '.repeat(200)}`}<span>Microsoft unveils new, nicer chat bot</span>\n${' '.repeat(40)}</a>`;
    expect(name(indented)).toBe('Microsoft unveils new, nicer chat bot');
  });

  it('names by each child’s own text alternative: an image by its title, a visibility:hidden part left out', () => {
    expect(name('<a href="/"><img src="home.png" title="Home"></a>')).toBe('Home');
    expect(name('<button>Save <span style="visibility:hidden">draft</span></button>')).toBe('Save');
    expect(name('<button aria-labelledby="l1 l2">x</button><span id="l1">Delete</span><span id="l2" aria-label="the file"></span>', 'button')).toBe(
      'Delete the file',
    );
  });

  it('reads through shadow roots and slots', () => {
    const host = first('<fancy-button role="button"><span>Slotted label</span></fancy-button>');
    (host as HTMLElement).attachShadow({ mode: 'open' }).innerHTML = '<b>Icon</b> <slot></slot>';
    expect(accessibleName(host, 'button')).toBe('Icon Slotted label');
  });
});

describe('elementRole', () => {
  it('maps elements to roles and honours explicit ones', () => {
    const role = (html: string) => elementRole(first(html));
    expect(role('<a href="/">x</a>')).toBe('link');
    expect(role('<a>x</a>')).toBeUndefined();
    expect(role('<input type="checkbox">')).toBe('checkbox');
    expect(role('<input type="range">')).toBe('slider');
    expect(role('<input list="l">')).toBe('combobox');
    expect(role('<select multiple></select>')).toBe('listbox');
    expect(role('<section></section>')).toBe('region');
    expect(role('<header></header>')).toBe('banner');
    expect(elementRole(first('<article><header></header></article>', 'header'))).toBeUndefined();
    expect(role('<div role="tab button">x</div>')).toBe('tab');
    expect(role('<nav role="none"></nav>')).toBeUndefined();
    expect(role('<div contenteditable="true"></div>')).toBe('textbox');
    expect(role('<div tabindex="0"></div>')).toBe('focusable');
    expect(role('<div tabindex="-1"></div>')).toBeUndefined();
    // A role-less element with a click handler attribute acts as a button: listed, named by its content.
    expect(role('<div onclick="open()">Open menu</div>')).toBe('clickable');
    expect(name('<span onclick="open()">Open menu</span>')).toBe('Open menu');
  });
});
