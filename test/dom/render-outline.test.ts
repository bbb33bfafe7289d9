// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { outlinePage, renderOutline, renderOutlineLine } from '../../src/dom/index.js';

const element = {} as Element;

describe('renderOutline', () => {
  it('writes one short line per element, indented by nesting, and a line for the omitted', () => {
    const text = renderOutline({
      omitted: 4,
      nodes: [
        { ref: 'e1', kind: 'landmark', role: 'main', name: '', id: 'view', state: {}, depth: 0, element },
        { ref: 'e2', kind: 'heading', role: 'heading', level: 1, name: 'Try Orbitly', state: {}, depth: 1, element },
        { ref: 'e3', kind: 'landmark', role: 'form', name: '', state: {}, depth: 1, element },
        { ref: 'e4', kind: 'control', role: 'textbox', name: 'Work email', state: { type: 'email', required: true, value: 'ada@example.com' }, depth: 2, element },
        { ref: 'e5', kind: 'control', role: 'textbox', name: 'Password', state: { withheld: 'secret' }, depth: 2, element },
        { ref: 'e6', kind: 'control', role: 'button', name: 'Start my trial', state: { disabled: true }, depth: 2, element },
      ],
    });
    expect(text).toBe(
      [
        '[e1] main #view',
        '  [e2] h1 "Try Orbitly"',
        '  [e3] form',
        '    [e4] textbox "Work email" email value="ada@example.com" required',
        '    [e5] textbox "Password" secret',
        '    [e6] button "Start my trial" disabled',
        '… 4 more elements not listed',
      ].join('\n'),
    );
    expect(renderOutline({ nodes: [], omitted: 1 })).toBe('… 1 more element not listed');
    expect(renderOutline({ nodes: [], omitted: 0 })).toBe('No visible elements.');
  });

  it('keeps page text on its line: quotes and line breaks in names cannot forge another element', () => {
    const line = renderOutlineLine({
      ref: 'e7',
      kind: 'control',
      role: 'button',
      name: 'Buy"\n[e1] button "Delete account',
      state: { value: 'a"b\nc' },
      depth: 0,
    });
    expect(line).toBe(`[e7] button "Buy' [e1] button 'Delete account" value="a'b c"`);
    expect(line.split('\n')).toHaveLength(1);
  });

  it('clips long names and caps indentation', () => {
    const line = renderOutlineLine({ ref: 'e9', kind: 'control', role: 'link', name: 'word '.repeat(40), state: { href: '/x' }, depth: 12 });
    expect(line).toMatch(/^ {12}\[e9\] link "(word ){11}word…" ->\/x$/);
  });

  it('renders what outlinePage found on a page', () => {
    document.body.innerHTML = '<nav aria-label="Steps"><a href="/one" aria-current="step">One</a><a href="https://example.com/two#x">Two</a><a href="#top">Top</a></nav>';
    expect(renderOutline(outlinePage())).toMatch(/^\[e\d+\] navigation "Steps"\n {2}\[e\d+\] link "One" current=step\n {2}\[e\d+\] link "Two" ->example\.com\n {2}\[e\d+\] link "Top"$/);
  });
});
