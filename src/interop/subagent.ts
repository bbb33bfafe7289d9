import type { Unsubscribe } from '../emitter.js';
import { ValidationError } from '../errors.js';
import type { PlanEvents } from '../events.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent, type IntegrationEventName } from '../plan/emit-plan-event.js';

const PREFIX = 'subagent.';

/**
 * Re-emits every event of a subagent's plan on its parent's, as `subagent.<event>` with the
 * payload plus `subagent: name` (a child's `plan-update` arrives as `subagent.plan-update`).
 *
 * Nesting is flattened, not stacked: an event the child itself forwarded from its own subagent
 * (`subagent.plan-update` with `subagent: 'search'`) reaches the parent as `subagent.plan-update`
 * with the path `subagent: 'research/search'`. One prefix keeps every forwarded event typed.
 *
 * @example
 * ```ts
 * declare const researchPlan: Plan; // the subagent's plan
 * const stop = forwardSubagentEvents(researchPlan, plan, 'research');
 * plan.on('subagent.plan-update', ({ subagent, todos }) => console.log(subagent, todos.length));
 * stop(); // when the subagent is done
 * ```
 */
export function forwardSubagentEvents(child: Plan, parent: Plan, name: string): Unsubscribe {
  if (child === parent) {
    throw new ValidationError('invalid_input', `forwardSubagentEvents was given the same plan twice: pass the subagent's own Plan as \`child\`.`, {
      issues: [{ path: 'child', message: 'is the parent plan' }],
    });
  }
  if (name.trim() === '')
    throw new ValidationError('invalid_input', 'forwardSubagentEvents needs a subagent name: pass a non-empty `name`.', {
      issues: [{ path: 'name', message: 'must not be empty' }],
    });
  let forwarding = false;
  return child.onAny((event, payload) => {
    // Plans that forward to each other would echo an event forever: drop what comes back around.
    if (forwarding) return;
    const nested = event.startsWith(PREFIX);
    const inner = (payload as { subagent?: unknown }).subagent;
    const subagent = nested && typeof inner === 'string' ? `${name}/${inner}` : name;
    const forwarded = (nested ? event : `${PREFIX}${event}`) as keyof PlanEvents & string;
    forwarding = true;
    try {
      emitPlanEvent(parent, forwarded as IntegrationEventName, { ...(payload as object), subagent } as PlanEvents[IntegrationEventName]);
    } finally {
      forwarding = false;
    }
  });
}
