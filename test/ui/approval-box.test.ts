// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { definePlanPanel, type PanelApprovalRequest, type PlanPanelElement } from '../../src/ui/index.js';

afterEach(() => document.body.replaceChildren());

function mount(): PlanPanelElement {
  definePlanPanel();
  const panel = document.createElement('plan-panel');
  panel.plan = new Plan();
  document.body.append(panel);
  return panel;
}

const box = (panel: PlanPanelElement) => panel.shadowRoot?.querySelector('.approval') as HTMLElement;
const warning = (panel: PlanPanelElement) => box(panel).querySelector('.approval-warning') as HTMLElement;

const sendsForm: PanelApprovalRequest = {
  kind: 'action',
  tool: 'click',
  args: { target: 'e21' },
  risk: 'irreversible',
  detail: 'Click the button "Continue". It sends the form "Payments" to /api/transfer: Recipient IBAN, Amount.',
  effect: 'It sends the form "Payments" to /api/transfer: Recipient IBAN, Amount',
  consequence: 'send',
  todo: { id: 't1', description: 'Open the pricing page' },
  url: 'https://bank.example/app',
};

describe('the approval box', () => {
  it('shows the request’s words and the todo it serves, and says plainly when the action is not what that todo announced', async () => {
    const panel = mount();
    const answer = panel.requestApproval(sendsForm);
    const text = box(panel).textContent ?? '';
    expect(text).toContain('Click the button "Continue". It sends the form "Payments" to /api/transfer: Recipient IBAN, Amount.');
    expect(text).toContain('“Open the pricing page”');
    expect(warning(panel).hidden).toBe(false);
    expect(warning(panel).textContent).toBe('Not what the step said: “Open the pricing page” does not say it sends something.');
    // Read with the question by a screen reader.
    expect(box(panel).getAttribute('aria-describedby')).toContain('approval-warning');
    (box(panel).querySelector('.deny') as HTMLButtonElement).click();
    await expect(answer).resolves.toMatchObject({ approved: false });
  });

  it('says nothing more when the todo announced it, or when the request does not say what the action amounts to', async () => {
    const panel = mount();
    const cases: PanelApprovalRequest[] = [
      { ...sendsForm, todo: { id: 't2', description: 'Update the display name' } },
      { ...sendsForm, consequence: 'delete', todo: { id: 't3', description: 'Delete the old draft' } },
      { ...sendsForm, consequence: 'leave', url: 'https://docs.example.com/start', todo: { id: 't4', description: 'Read the docs on docs.example.com' } },
      { ...sendsForm, consequence: undefined },
      { ...sendsForm, consequence: 'something-new' },
    ];
    for (const request of cases) {
      const answer = panel.requestApproval(request);
      expect(warning(panel).hidden, JSON.stringify(request.todo)).toBe(true);
      (box(panel).querySelector('.allow') as HTMLButtonElement).click();
      await answer;
    }
    // A delete while the step only checks a name: said.
    const answer = panel.requestApproval({ ...sendsForm, consequence: 'delete', todo: { id: 't5', description: 'Check the display name' } });
    expect(warning(panel).textContent).toBe('Not what the step said: “Check the display name” does not say it deletes something.');
    (box(panel).querySelector('.deny') as HTMLButtonElement).click();
    await answer;
  });
});
