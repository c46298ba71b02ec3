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
