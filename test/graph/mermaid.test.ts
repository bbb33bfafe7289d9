import { describe, expect, it } from 'vitest';
import { toMermaid } from '../../src/graph/mermaid.js';

describe('toMermaid', () => {
  it('draws calls as nodes and state paths as the edges between them', () => {
    expect(
      toMermaid([
        { _tool: 'fetchUserProfile', userName: 'Alice', _outputPath: '†state.userProfileData' },
        { _tool: 'summarizeProfile', profile: '†state.userProfileData', _outputPath: '†state.profileSummary' },
      ]),
    ).toBe(
      [
        'graph TD',
        '  c0["0: fetchUserProfile"]',
        '  c1["1: summarizeProfile"]',
        '  s0{{"state.profileSummary"}}',
        '  c0 -->|"state.userProfileData"| c1',
        '  c1 -->|"writes"| s0',
      ].join('\n'),
    );
  });

  it('draws input and state sources, and the alternatives that may not be taken as dotted', () => {
    const chart = toMermaid([
      { _tool: 'processPayment', amount: '†input.amount', _outputPath: '†state.receipt || †state.error' },
      { _tool: 'confirmOrder', receipt: '†state.receipt' },
      { _tool: 'reportFailure', error: '†state.error', order: '†state.order' },
    ]);
    expect(chart.split('\n')).toEqual([
      'graph TD',
      '  state[("state")]',
      '  input[/"input"/]',
      '  c0["0: processPayment"]',
      '  c1["1: confirmOrder"]',
      '  c2["2: reportFailure"]',
      '  input -->|"input.amount"| c0',
      '  c0 -->|"state.receipt"| c1',
      '  c0 -.->|"state.error"| c2',
      '  state -->|"state.order"| c2',
    ]);
  });

  it('escapes labels so a tool name cannot break the chart', () => {
    const chart = toMermaid([{ _tool: 'evil"]\nclick c0 call alert(1)|<b>#&', _outputPath: '†state.x' }, 42]);
    expect(chart).toContain('c0["0: evil#quot;] click c0 call alert(1)#124;#lt;b#gt;#35;#amp;"]');
    expect(chart).toContain('c1["1: (invalid call)"]');
    for (const line of chart.split('\n').slice(1)) expect(line.match(/"/g)?.length ?? 0).toBeLessThanOrEqual(4);
  });
});
