// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { controlRisk, RISK_ATTRIBUTE } from '../../src/dom/control-risk.js';

afterEach(() => document.body.replaceChildren());

const el = (html: string, id: string) => {
  document.body.innerHTML = html;
  return document.getElementById(id) as Element;
};

describe('controlRisk', () => {
  it('a visible name that deletes, pays or signs out is irreversible before anything runs; an ordinary one is a write', () => {
    expect(controlRisk(el('<button id="b">Delete account now</button>', 'b'))).toEqual({ risk: 'irreversible', kind: 'close-account', source: 'name' });
    expect(controlRisk(el('<div id="b" onclick="x()">Upgrade to Pro €99</div>', 'b'))).toEqual({ risk: 'irreversible', kind: 'buy', source: 'name' });
    expect(controlRisk(el('<input type="submit" id="b" value="Jetzt bezahlen">', 'b'))).toMatchObject({ risk: 'irreversible', kind: 'pay' });
    expect(controlRisk(el('<button id="b">Show more</button>', 'b'))).toEqual({ risk: 'write', source: 'none' });
  });

  it('data-planloop-risk on the control or a container wins over any guess from the name', () => {
    expect(RISK_ATTRIBUTE).toBe('data-planloop-risk');
    expect(controlRisk(el('<button id="b" data-planloop-risk="write">Delete filter</button>', 'b'))).toEqual({ risk: 'write', source: 'attribute' });
    expect(controlRisk(el('<form data-planloop-risk="irreversible"><button id="b">Continue</button></form>', 'b'))).toEqual({
      risk: 'irreversible',
      source: 'attribute',
    });
    expect(controlRisk(el('<button id="b" data-planloop-risk="read">Remove highlight</button>', 'b'))).toEqual({ risk: 'read', source: 'attribute' });
    // An unknown value is no mark: the name decides.
    expect(controlRisk(el('<button id="b" data-planloop-risk="safe">Delete</button>', 'b'))).toMatchObject({ risk: 'irreversible', source: 'name' });
  });

  it('takes a host’s words; hidden text does not make a name consequential', () => {
    expect(controlRisk(el('<button id="b">Purge</button>', 'b'), { delete: ['purge'] })).toMatchObject({ risk: 'irreversible', kind: 'delete' });
    expect(controlRisk(el('<div id="b" role="button" tabindex="0">Next<span hidden> and delete everything</span></div>', 'b'))).toEqual({
      risk: 'write',
      source: 'none',
    });
    // What a person reads counts even when an aria-label says something harmless.
    expect(controlRisk(el('<button id="b" aria-label="Check name">Delete account</button>', 'b'))).toMatchObject({
      risk: 'irreversible',
      kind: 'close-account',
    });
  });
});
