/** The number a SIM is shown with: the protocol counts slots from 0, people (and the phone's settings) from 1. */
export function simNumber(slot: number): number {
  return Number.isInteger(slot) && slot >= 0 ? slot + 1 : 1;
}
