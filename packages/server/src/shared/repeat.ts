/** Runs `work` every `everyMs` until stopped, never two runs at once; errors go to `onError`. */
export function startRepeating(work: () => Promise<unknown>, everyMs: number, onError: (error: unknown) => void, runNow = false): () => void {
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    work().catch(onError).finally(() => {
      running = false;
    });
  };
  if (runNow) tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Rejects with `message` when `promise` has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
