/** Whole seconds left until `untilMs`, ticking once a second and stopping at zero. */
import { useEffect, useState } from 'react';

export function useCountdown(untilMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (untilMs <= Date.now()) return;
    const timer = window.setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= untilMs) window.clearInterval(timer);
    }, 1000);
    return () => window.clearInterval(timer);
  }, [untilMs]);
  return Math.max(0, Math.ceil((untilMs - now) / 1000));
}
