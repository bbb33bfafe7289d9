import { encode } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import {
  createContextCapsule,
  validateContextCapsule,
  renderContextCapsule,
  safeValidateContextCapsule,
  type ContextCapsule,
} from '../../src/interop/context-capsule.js';
import { createWriteTodos } from '../../src/interop/write-todos.js';
import { Plan } from '../../src/plan.js';

const research = () => {
  const plan = new Plan();
  const writeTodos = createWriteTodos(plan);
  writeTodos.execute({
    todos: [
      { content: 'Read the pricing page', status: 'completed' },
      { content: 'Compare SSO support', status: 'completed' },
      { content: 'Check the annual discount', status: 'pending' },
    ],
  });
  return { plan, writeTodos };
};

describe('ContextCapsule', () => {
  it('packs the goal, the plan, findings, artifacts and next actions', () => {
    const { plan, writeTodos } = research();
    const capsule = createContextCapsule(plan, {
      goal: 'Find the cheapest plan with SSO',
      keyFindings: ['SSO starts at the Business tier'],
      artifacts: [{ type: 'markdown', ref: 'm1', summary: 'Tier comparison' }],
      nextActions: ['Show the Business tier'],
      revision: writeTodos.revision,
    });
    expect(capsule).toEqual({
      goal: 'Find the cheapest plan with SSO',
      planSnapshot: { revision: 1, todos: plan.todos.list() },
      keyFindings: ['SSO starts at the Business tier'],
      artifacts: [{ type: 'markdown', ref: 'm1', summary: 'Tier comparison' }],
      nextActions: ['Show the Business tier'],
    } satisfies ContextCapsule);
    expect(validateContextCapsule(JSON.parse(JSON.stringify(capsule)))).toEqual(capsule);
  });

  it('defaults findings and artifacts to empty lists', () => {
    const capsule = createContextCapsule(new Plan(), { goal: 'Look around' });
    expect(capsule).toEqual({ goal: 'Look around', planSnapshot: { todos: [] }, keyFindings: [], artifacts: [] });
  });

  it('validates, naming the bad fields', () => {
    expect(() => createContextCapsule(new Plan(), { goal: ' ' })).toThrow(ValidationError);
    const result = safeValidateContextCapsule({ goal: 'x', keyFindings: [''], artifacts: [{ type: 'doc' }] });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message).toContain('keyFindings[0] must not be empty');
      expect(result.error.message).toContain('artifacts[0].ref is required');
    }
    expect(safeValidateContextCapsule({ goal: 'x', keyFindings: [], artifacts: [] })).toEqual({
      success: true,
      data: { goal: 'x', keyFindings: [], artifacts: [] },
    });
  });

  it('renders a few compact lines for the parent, instead of a transcript', () => {
    const { plan } = research();
    const capsule = createContextCapsule(plan, {
      goal: 'Find the cheapest plan with SSO',
      keyFindings: ['SSO starts at the Business tier', 'Annual billing saves 20%'],
      artifacts: [
        { type: 'markdown', ref: 'm1', summary: 'Tier comparison' },
        { type: 'url', ref: '/pricing', summary: '' },
      ],
      nextActions: ['Show the Business tier'],
    });
    const text = renderContextCapsule(capsule);
    expect(text).toBe(
      [
        'Subagent result. Goal: Find the cheapest plan with SSO',
        'Plan: 2 of 3 done.',
        '- [pending] Check the annual discount',
        'Findings:',
        '- SSO starts at the Business tier',
        '- Annual billing saves 20%',
        'Artifacts:',
        '- markdown m1: Tier comparison',
        '- url /pricing',
        'Next:',
        '- Show the Business tier',
      ].join('\n'),
    );
    expect(encode(text).length).toBeLessThan(80);
    expect(renderContextCapsule({ goal: 'Only a goal', keyFindings: [], artifacts: [] })).toBe('Subagent result. Goal: Only a goal');
  });
});
