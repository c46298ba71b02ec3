import { describe, expect, it } from 'vitest';
import { createInFlightCounter } from './in-flight.ts';

describe('createInFlightCounter', () => {
  it('reports busy on the first start and idle on the last finish only', () => {
    const counter = createInFlightCounter();
    expect(counter.start()).toBe(true);
    expect(counter.start()).toBe(false);
    expect(counter.start()).toBe(false);
    expect(counter.size).toBe(3);
    expect(counter.finish()).toBe(false);
    expect(counter.finish()).toBe(false);
    expect(counter.finish()).toBe(true);
    expect(counter.size).toBe(0);
  });

  it('never goes below zero when finish is called too often', () => {
    const counter = createInFlightCounter();
    expect(counter.finish()).toBe(false);
    expect(counter.size).toBe(0);
    expect(counter.start()).toBe(true);
  });

  it('turns busy again after having been idle', () => {
    const counter = createInFlightCounter();
    counter.start();
    counter.finish();
    expect(counter.start()).toBe(true);
  });
});
