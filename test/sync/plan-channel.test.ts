import { describe, expect, it } from 'vitest';
import { createPlanChannel, type PlanChannelMessage } from '../../src/sync/plan-channel.js';
import { fakeBroadcastChannels, sharedLocalStorage } from '../helpers/fake-tabs.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

function listen(channel: ReturnType<typeof createPlanChannel>) {
  const heard: PlanChannelMessage[] = [];
  channel.onMessage((message) => heard.push(message));
  return heard;
}

describe('createPlanChannel', () => {
  it('carries messages between tabs on one key, never back to the sender or to another key', async () => {
    const BroadcastChannel = fakeBroadcastChannels();
    const a = createPlanChannel({ key: 'tour', replica: 'A', BroadcastChannel });
    const b = createPlanChannel({ key: 'tour', replica: 'B', BroadcastChannel });
    const other = createPlanChannel({ key: 'other', replica: 'C', BroadcastChannel });
    const [heardA, heardB, heardOther] = [listen(a), listen(b), listen(other)];
    expect(a.transport).toBe('broadcast');
    a.post({ type: 'changed', from: 'A', revision: 7 });
    b.post({ type: 'stop', from: 'B', to: 'A', reason: 'user pressed Stop' });
    await tick();
    expect(heardB).toEqual([{ type: 'changed', from: 'A', revision: 7 }]);
    expect(heardA).toEqual([{ type: 'stop', from: 'B', to: 'A', reason: 'user pressed Stop' }]);
    expect(heardOther).toEqual([]);
    b.close();
    a.post({ type: 'lease', from: 'A', holder: null });
    await tick();
    expect(heardB).toHaveLength(1);
  });

  it('drops malformed messages (another version of the page, or not ours)', async () => {
    const BroadcastChannel = fakeBroadcastChannels();
    const a = createPlanChannel({ key: 'tour', replica: 'A', BroadcastChannel });
    const heard = listen(a);
    const raw = new BroadcastChannel('planloop:tour');
    for (const junk of [
      null,
      'changed',
      { type: 'changed', from: 'X' },
      { type: 'lease', from: 'X', holder: 3 },
      { type: 'merge', from: 'X' },
      { type: 'stop' },
    ])
      raw.postMessage(junk);
    raw.postMessage({ type: 'changed', from: 'X', revision: 1, extra: true });
    await tick();
    expect(heard).toEqual([{ type: 'changed', from: 'X', revision: 1 }]);
  });

  it("works over Node's real BroadcastChannel too", async () => {
    const a = createPlanChannel({ key: 'real', replica: 'A' });
    const b = createPlanChannel({ key: 'real', replica: 'B' });
    const heard = listen(b);
    a.post({ type: 'changed', from: 'A', revision: 1 });
    await tick(50);
    expect(heard).toEqual([{ type: 'changed', from: 'A', revision: 1 }]);
    a.close();
    b.close();
  });

  it('falls back to storage events where BroadcastChannel is missing, and hears plan writes as changes', async () => {
    const origin = sharedLocalStorage();
    const [tabA, tabB] = [origin.tab(), origin.tab()];
    const a = createPlanChannel({ key: 'tour', replica: 'A', BroadcastChannel: null, ...tabA });
    const b = createPlanChannel({ key: 'tour', replica: 'B', BroadcastChannel: null, ...tabB });
    const [heardA, heardB] = [listen(a), listen(b)];
    expect(a.transport).toBe('storage');
    a.post({ type: 'changed', from: 'A', revision: 3 });
    a.post({ type: 'changed', from: 'A', revision: 3 });
    await tick();
    expect(heardB).toEqual([
      { type: 'changed', from: 'A', revision: 3 },
      { type: 'changed', from: 'A', revision: 3 },
    ]);
    expect(heardA).toEqual([]);
    // A localStorage adapter in tab B writing the plan's key is a change for tab A.
    tabB.storage.setItem('tour', '{"todos":[]}');
    tabB.storage.setItem('tour:doc:m1:abc', 'a document part: not a notice');
    await tick();
    expect(heardA).toEqual([{ type: 'changed', from: '', revision: 0 }]);
    a.close();
    tabB.storage.setItem('tour', '{"todos":[1]}');
    await tick();
    expect(heardA).toHaveLength(1);
  });

  it("with BroadcastChannel too, hears another tab's write of the plan key once it is visible", async () => {
    const BroadcastChannel = fakeBroadcastChannels();
    const origin = sharedLocalStorage();
    const [tabA, tabB] = [origin.tab(), origin.tab()];
    const a = createPlanChannel({ key: 'tour', replica: 'A', BroadcastChannel, ...tabA });
    const heard = listen(a);
    tabB.storage.setItem('tour', '{"todos":[]}');
    tabB.storage.setItem('tour:channel', JSON.stringify({ type: 'changed', from: 'B', revision: 9 }));
    await tick();
    // The storage transport's key is not read when BroadcastChannel carries the messages.
    expect(heard).toEqual([{ type: 'changed', from: '', revision: 0 }]);
  });

  it('is a silent channel when the tab has neither', () => {
    const channel = createPlanChannel({ key: 'tour', replica: 'A', BroadcastChannel: null, storage: null });
    expect(channel.transport).toBe('none');
    expect(() => channel.post({ type: 'changed', from: 'A', revision: 1 })).not.toThrow();
  });
});
