/**
 * Group commit: items pushed while a group is being applied wait and go together in the next one. One group
 * runs at a time, so the work holds at most one database connection however many items arrive, and an idle
 * queue applies a lone item at once (after the current turn of the event loop, so items that arrive together
 * share a group).
 */
export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export function groupRunner<T, R>(apply: (items: T[]) => Promise<Array<Settled<R>>>, maxGroup: number) {
  const queue: Array<{ item: T; resolve: (value: R) => void; reject: (error: unknown) => void }> = [];
  let running = false;
  let scheduled = false;

  async function drain(): Promise<void> {
    scheduled = false;
    if (running) return;
    running = true;
    try {
      while (queue.length > 0) {
        const group = queue.splice(0, maxGroup);
        let results: Array<Settled<R>>;
        try {
          results = await apply(group.map((g) => g.item));
        } catch (error) {
          results = group.map(() => ({ ok: false, error }));
        }
        group.forEach((g, i) => {
          const result = results[i] ?? { ok: false, error: new Error('no result for a grouped item') };
          if (result.ok) g.resolve(result.value);
          else g.reject(result.error);
        });
      }
    } finally {
      running = false;
    }
  }

  return {
    /** Resolves with the item's result once its group is applied. */
    push(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running && !scheduled) {
          scheduled = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
