import { describe, expect, it } from 'vitest';
import { safeParseTurnEnvelope } from '../src/envelope/parse.js';
import { formatIssues } from '../src/validation.js';

describe('formatIssues', () => {
  it('lists every issue of a short list', () => {
    expect(
      formatIssues([
        { path: 'a', message: 'is required (a string)' },
        { path: 'b', message: 'must not be empty' },
      ]),
    ).toBe('a is required (a string); b must not be empty');
  });

  it('lists the first 20 issues and counts the rest, so a huge bad reply gets a bounded message', () => {
    const issues = Array.from({ length: 10_000 }, (_, i) => ({ path: `actions[${i}].type`, message: 'must be one of narrate, tool, ask, task_finish' }));
    const message = formatIssues(issues);
    expect(message.split('; ')).toHaveLength(21);
    expect(message).toContain('actions[19].type');
    expect(message).not.toContain('actions[20].type');
    expect(message).toMatch(/and 9980 more issues like these$/);
    // A 170 KB envelope with 10,000 bad actions made a 669 KB error message, fed back to the model.
    const reply = JSON.stringify({ actions: Array.from({ length: 10_000 }, () => ({ type: 'bogus' })) });
    const result = safeParseTurnEnvelope(reply);
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.message.length).toBeLessThan(3000);
      // The structured list stays complete: the action count, then every bad action.
      expect(result.error.issues).toHaveLength(10_001);
    }
  });
});
