/**
 * Layers pinned to an edge of the screen (bottom tabs, toasts) publish their height as a CSS variable on
 * <html>, so the page, sticky action bars and dialogs keep that much room free and never sit under them.
 */
import { useLayoutEffect, type RefObject } from 'react';

export type ReservedSpace = '--tabs-space' | '--toast-space';

/**
 * Publishes the room `ref` takes at the bottom of the screen: its height, or with `fromBottom` everything from
 * its top edge down to the bottom of the screen (a toast floating above the tabs), plus `gap` when it shows.
 */
export function useReservedSpace(ref: RefObject<HTMLElement | null>, name: ReservedSpace, { gap = 0, fromBottom = false } = {}): void {
  useLayoutEffect(() => {
    const el = ref.current;
    const root = document.documentElement;
    if (!el) return;
    const publish = () => {
      const height = el.offsetHeight;
      const room = fromBottom ? Math.ceil(window.innerHeight - el.getBoundingClientRect().top) : height;
      root.style.setProperty(name, `${height > 0 ? Math.max(0, room) + gap : 0}px`);
    };
    publish();
    window.addEventListener('resize', publish);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', publish);
      root.style.removeProperty(name);
    };
  }, [ref, name, gap, fromBottom]);
}
