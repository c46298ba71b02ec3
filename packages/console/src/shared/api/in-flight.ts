/** Counts requests in flight so the global loading flag turns on with the first and off with the last. */

export interface InFlightCounter {
  /** Records a started request; true when it is the first one (the app just became busy). */
  start(): boolean;
  /** Records a finished request; true when it was the last one (the app just became idle). */
  finish(): boolean;
  readonly size: number;
}

export function createInFlightCounter(): InFlightCounter {
  let size = 0;
  return {
    start() {
      size += 1;
      return size === 1;
    },
    finish() {
      if (size === 0) return false;
      size -= 1;
      return size === 0;
    },
    get size() {
      return size;
    },
  };
}
