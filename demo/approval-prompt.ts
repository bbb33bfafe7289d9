// The demo's approval question for a step the guide wants to take (planloop's `onApprove`): the
// plan panel's own `requestApproval` when the panel has one, else this small Allow / Deny box under
// the guide's controls. What the model wrote (the step's todo, its purpose) is shown as text only.

import type { ApprovalRequest } from 'planloop';

/** The panel's approval method, when the panel in use has one. */
type PanelApproval = (request: ApprovalRequest, options?: { signal?: AbortSignal }) => Promise<{ approved: boolean; reason?: string }>;

/**
 * Asks the user about `request`: through `panel.requestApproval` if present, else a box placed
 * after `anchor`, with focus on Deny and put back where it was after the answer. Resolves with the
 * answer; an abort of `signal` (the run stopped, or no answer in time) closes the box as a no.
 */
export function requestApproval(
  panel: HTMLElement,
  anchor: HTMLElement,
  request: ApprovalRequest,
  signal: AbortSignal,
): Promise<{ approved: boolean; reason?: string }> {
  const own = (panel as HTMLElement & { requestApproval?: PanelApproval }).requestApproval;
  // The signal lets a panel that takes one close the question when the run no longer waits for it.
  if (typeof own === 'function') return own.call(panel, request, { signal });
  return new Promise((resolve) => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const box = document.createElement('div');
    box.className = 'approval-box card';
    box.setAttribute('role', 'alertdialog');
    box.setAttribute('aria-labelledby', 'approval-title');
    box.setAttribute('aria-describedby', 'approval-detail');
    const title = document.createElement('p');
    title.id = 'approval-title';
    title.textContent = request.kind === 'plan-change' ? 'The guide changed a step of the plan. Go on with it?' : 'The guide wants to do this. Allow it?';
    const detail = document.createElement('p');
    detail.id = 'approval-detail';
    detail.textContent = request.kind === 'plan-change' && request.todo ? `${request.detail} Now: "${request.todo.description}"` : request.detail;
    const allow = document.createElement('button');
    allow.type = 'button';
    allow.textContent = 'Allow';
    const deny = document.createElement('button');
    deny.type = 'button';
    deny.className = 'danger';
    deny.textContent = 'Deny';
    box.append(title, detail, allow, deny);
    anchor.after(box);
    deny.focus();
    const settle = (approved: boolean): void => {
      box.remove();
      signal.removeEventListener('abort', onAbort);
      if (before?.isConnected) before.focus();
      resolve({ approved });
    };
    const onAbort = (): void => settle(false);
    allow.addEventListener('click', () => settle(true));
    deny.addEventListener('click', () => settle(false));
    box.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        settle(false);
      }
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
