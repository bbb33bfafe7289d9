import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Store, type Recipe } from '../src/store.js';

type Meta = string;
const add =
  (n: number): Recipe<readonly number[], Meta> =>
  (state) => ({ state: [...state, n], meta: `add ${n}` });

describe('Store', () => {
  it('commits a recipe whole and tells every subscriber once, with the previous state', () => {
    const store = new Store<readonly number[], Meta>([]);
    const seen: string[] = [];
    store.subscribe(({ state, previous, meta }) => seen.push(`${meta}: ${previous.join()} -> ${state.join()}`));
    store.update(add(1));
    store.update(() => null); // nothing changed: nothing committed
    store.update((state) => ({ state, meta: 'same' })); // the same state: nothing committed
    expect(seen).toEqual(['add 1:  -> 1']);
  });

  it('a recipe that throws changes nothing and tells no one', () => {
    const store = new Store<readonly number[], Meta>([1]);
    let told = 0;
    store.subscribe(() => told++);
    expect(() =>
      store.update(() => {
        throw new Error('invalid');
      }),
    ).toThrow('invalid');
    expect(store.state).toEqual([1]);
    expect(told).toBe(0);
  });

  it('delivers a change made inside a subscriber after every subscriber has the current one', () => {
    const store = new Store<readonly number[], Meta>([]);
    const seen: string[] = [];
    store.subscribe(({ meta }) => {
      seen.push(`first ${meta}`);
      if (meta === 'add 1') store.update(add(2));
    });
    store.subscribe(({ meta, state }) => seen.push(`second ${meta} [${state.join()}]`));
    store.update(add(1));
    expect(seen).toEqual(['first add 1', 'second add 1 [1]', 'first add 2', 'second add 2 [1,2]']);
  });

  it('rollback restores the checkpoint itself when no one else changed the state', () => {
    const store = new Store<readonly number[], Meta>([1]);
    const before = store.state;
    const tx = store.begin();
    tx.update(add(2));
    tx.update(add(3));
    tx.rollback(() => 'rollback');
    expect(store.state).toBe(before);
  });

  it('a rollback with nothing of its own to undo commits nothing and tells no one', () => {
    const store = new Store<readonly number[], Meta>([1]);
    const seen: string[] = [];
    store.subscribe(({ meta }) => seen.push(meta));
    const tx = store.begin();
    store.update(add(9)); // someone else's change
    const after = store.state;
    tx.update(() => null); // the transaction's own update changed nothing
    tx.rollback(() => 'rollback');
    expect(store.state).toBe(after); // the same object: not replayed into an equal copy
    expect(seen).toEqual(['add 9']);
    // And with no change at all meanwhile.
    const idle = store.begin();
    idle.rollback(() => 'rollback');
    expect(seen).toEqual(['add 9']);
  });

  it('rollback keeps the changes others made during the transaction', () => {
    const store = new Store<readonly number[], Meta>([1]);
    const tx = store.begin();
    tx.update(add(2));
    store.update(add(9)); // a tool, the host, another tab
    tx.rollback(() => 'rollback');
    expect(store.state).toEqual([1, 9]);
    expect(() => tx.update(add(4))).toThrow(/ended/);
  });

  it('commit keeps the transaction and ends it', () => {
    const store = new Store<readonly number[], Meta>([]);
    const tx = store.begin();
    tx.update(add(1));
    tx.commit();
    tx.rollback(() => 'late'); // ended: does nothing
    expect(store.state).toEqual([1]);
  });

  it('prepare finishes every commit, a rollback included, from the state it replaces', () => {
    type Counted = { items: readonly number[]; commits: number };
    const store = new Store<Counted, Meta>({ items: [], commits: 0 }, { prepare: (next, previous) => ({ ...next, commits: previous.commits + 1 }) });
    const push = (n: number) => (state: Counted) => ({ state: { ...state, items: [...state.items, n] }, meta: `push ${n}` });
    store.update(push(1));
    const tx = store.begin();
    tx.update(push(2));
    store.update(push(3));
    tx.rollback(() => 'rollback');
    // The rollback replays push(3) onto the checkpoint (commits 1), then prepare counts it as the
    // fourth commit: a rollback never takes the counter back.
    expect(store.state).toEqual({ items: [1, 3], commits: 4 });
  });

  it('property: any interleaving of own and foreign updates rolls back to the checkpoint replayed with the foreign ones', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ own: fc.boolean(), n: fc.integer() }), { maxLength: 20 }), (steps) => {
        const store = new Store<readonly number[], Meta>([0]);
        const tx = store.begin();
        for (const { own, n } of steps) (own ? tx.update : store.update.bind(store))(add(n));
        tx.rollback(() => 'rollback');
        expect(store.state).toEqual([0, ...steps.filter((step) => !step.own).map((step) => step.n)]);
      }),
      { numRuns: 300 },
    );
  });
});
