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

  it("holds a notice of the app's own until the answer on screen has gone, which a user's next toast still replaces", () => {
    const timers: (() => void)[] = [];
    const store = createToastStore((fn) => timers.push(fn));
    store.show('success', 'Customer enrolled.');
    store.show('info', 'pwa.offlineReady', { translate: true, notice: true });
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Customer enrolled.']);
    timers[0]!();
    expect(store.getSnapshot()).toMatchObject([{ kind: 'info', text: 'pwa.offlineReady', translate: true }]);
    // With nothing on screen a notice shows at once, and the next toast of the user's replaces it.
    timers[1]!();
    store.show('info', 'notice', { notice: true });
    expect(store.getSnapshot()[0]?.text).toBe('notice');
    store.show('error', 'Failed');
    expect(store.getSnapshot().map((t) => t.text)).toEqual(['Failed']);
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
