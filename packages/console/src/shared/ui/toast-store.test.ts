import { describe, expect, it } from 'vitest';
import { createToastStore } from './toast-store.ts';

describe('toast store', () => {
  it('keeps one toast at a time: a new one replaces the old', () => {
    const store = createToastStore(() => undefined);
    store.show('success', 'Saved');
    store.show('error', 'Failed');
    expect(store.getSnapshot()).toHaveLength(1);
    expect(store.getSnapshot()[0]).toMatchObject({ kind: 'error', text: 'Failed' });
  });

  it('dismisses on its timer, but a stale timer does not remove a newer toast', () => {
    const timers: (() => void)[] = [];
    const store = createToastStore((fn) => timers.push(fn));
    store.show('info', 'first');
    store.show('info', 'second');
    timers[0]!();
    expect(store.getSnapshot()[0]?.text).toBe('second');
    timers[1]!();
    expect(store.getSnapshot()).toHaveLength(0);
  });

  it('notifies subscribers', () => {
    const store = createToastStore(() => undefined);
    let calls = 0;
    const unsubscribe = store.subscribe(() => (calls += 1));
    store.show('success', 'x', { translate: true });
    expect(store.getSnapshot()[0]?.translate).toBe(true);
    unsubscribe();
    store.show('success', 'y');
    expect(calls).toBe(1);
  });
});
