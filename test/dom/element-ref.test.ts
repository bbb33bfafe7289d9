// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createRefRegistry, outlinePage, refOf, refRegistryFor, renderOutline, resolveTarget, type RefRegistry } from '../../src/dom/index.js';
import { lineOf, loadDemo, refIn } from './fixtures.js';

afterEach(() => {
  document.body.replaceChildren();
});

const refFor = (registry: RefRegistry, name: string, root?: Element): string => {
  const text = renderOutline(outlinePage({ registry, ...(root ? { root } : {}) }));
  return refIn(lineOf(text, name));
};

describe('element refs', () => {
  it('keeps an element its ref across outlines, and gives refs only to listed elements', () => {
    document.body.innerHTML = '<main><button id="a">Alpha</button><button>Beta</button></main>';
    const registry = createRefRegistry();
    const first = renderOutline(outlinePage({ registry }));
    expect(renderOutline(outlinePage({ registry }))).toBe(first);
    expect(first).toBe('[e1] main\n  [e2] button "Alpha"\n  [e3] button "Beta"');
    expect(refOf(document.getElementById('a') as Element, registry)).toBe('e2');
    expect(refOf(document.querySelector('main p') ?? document.body, registry)).toBeUndefined();
  });

  it('gives a re-rendered element (an equal new node) its old ref', () => {
    const demo = loadDemo();
    demo.show('commercial');
    const registry = createRefRegistry();
    const team = refFor(registry, 'Start a 14-day trial');
    const plans = refFor(registry, 'Plans');
    const heading = refFor(registry, 'Team');
    demo.show('commercial'); // the router renders the page again: every element is new
    expect(refFor(registry, 'Start a 14-day trial')).toBe(team);
    expect(refFor(registry, 'Plans')).toBe(plans);
    expect(refFor(registry, 'Team')).toBe(heading);
  });

  it('keeps the ref of an element whose id is renamed, in place or by a re-render', () => {
    const demo = loadDemo();
    demo.show('commercial');
    const registry = createRefRegistry();
    const outline = outlinePage({ registry });
    const tier = outline.nodes.find((node) => node.id === 'tier-team');
    expect(tier).toBeDefined();
    const ref = tier?.ref as string;

    document.getElementById('tier-team')?.setAttribute('id', 'tier-team-renamed');
    expect(resolveTarget(ref, { registry })).toMatchObject({ ok: true, element: document.getElementById('tier-team-renamed'), via: 'ref' });

    // A re-render that renames it: a new unnamed <article>, known by its heading "Team".
    demo.show('commercial');
    document.getElementById('tier-team')?.setAttribute('id', 'plan-team');
    const found = resolveTarget(ref, { registry });
    expect(found).toMatchObject({ ok: true, element: document.getElementById('plan-team'), via: 'relocated' });
    expect(outlinePage({ registry }).nodes.find((node) => node.id === 'plan-team')?.ref).toBe(ref);
  });

  it('finds an element again by role and name when it lost its id', () => {
    document.body.innerHTML = '<main id="m"><button id="buy">Buy now</button></main>';
    const registry = createRefRegistry();
    const ref = refFor(registry, 'Buy now');
    (document.getElementById('m') as HTMLElement).innerHTML = '<div><button>Buy now</button></div>';
    const found = resolveTarget(ref, { registry });
    expect(found).toMatchObject({ ok: true, via: 'relocated', ref });
    expect(found.ok && found.element.textContent).toBe('Buy now');
    expect(refFor(registry, 'Buy now')).toBe(ref);
  });

  it('tells two equal links apart by their place after a re-render', () => {
    const html = '<main><section id="a"><h2>A</h2><a href="/a">Learn more</a></section><section id="b"><h2>B</h2><a href="/b">Learn more</a></section></main>';
    document.body.innerHTML = html;
    const registry = createRefRegistry();
    const refs = outlinePage({ registry })
      .nodes.filter((node) => node.name === 'Learn more')
      .map((node) => node.ref);
    document.body.innerHTML = html;
    const again = outlinePage({ registry }).nodes.filter((node) => node.name === 'Learn more');
    expect(again.map((node) => node.ref)).toEqual(refs);
    expect(again.map((node) => node.element.getAttribute('href'))).toEqual(['/a', '/b']);
  });

  it('does not hand an old ref to other content that takes the same place on another page', () => {
    const demo = loadDemo();
    const registry = createRefRegistry();
    demo.show('home');
    const home = outlinePage({ registry, root: document.getElementById('view') as HTMLElement });
    demo.show('docs');
    const docs = outlinePage({ registry, root: document.getElementById('view') as HTMLElement });
    const homeRefs = new Set(home.nodes.filter((node) => node.role !== 'main').map((node) => node.ref));
    const reused = docs.nodes.filter((node) => homeRefs.has(node.ref)).map((node) => `${node.ref} ${node.role} ${node.name || node.id}`);
    expect(reused).toEqual([]);
  });

  it('uses one registry per document by default, shared by the outline and the resolver', () => {
    document.body.innerHTML = '<button>Shared</button>';
    const node = outlinePage().nodes[0];
    expect(refOf(node?.element as Element)).toBe(node?.ref);
    expect(refRegistryFor(document).refOf(node?.element as Element)).toBe(node?.ref);
    expect(resolveTarget(node?.ref)).toMatchObject({ ok: true, element: node?.element });
  });
});
