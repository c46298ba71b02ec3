import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateByRule, buildStatement, foreclosureQuote, type InstalmentState, type OwedParts, type StatementEvent } from './loan-ledger.ts';
import { buildProductSchedule, STANDARD_PRODUCT, type LoanRequest } from './loan-product.ts';

const owed = (number: number, penaltyPaise: number, interestPaise: number, principalPaise: number, taxPaise = 0): OwedParts => ({ number, penaltyPaise, interestPaise, taxPaise, principalPaise });
const COMMON = { order: ['penalty', 'interest', 'principal'] as const, across: 'instalment' as const };

describe('allocation by the product\'s rule', () => {
  it('settles the oldest instalment part by part before the next, or each part across all first', () => {
    const dues = [owed(1, 50_00, 100_00, 900_00), owed(2, 50_00, 90_00, 910_00)];
    expect(allocateByRule({ order: [...COMMON.order], across: 'instalment' }, dues, 1_100_00).allocations).toEqual([
      { number: 1, penaltyPaise: 50_00, interestPaise: 100_00, taxPaise: 0, principalPaise: 900_00 },
      { number: 2, penaltyPaise: 50_00, interestPaise: 0, taxPaise: 0, principalPaise: 0 },
    ]);
    expect(allocateByRule({ order: [...COMMON.order], across: 'component' }, dues, 1_100_00).allocations).toEqual([
      { number: 1, penaltyPaise: 50_00, interestPaise: 100_00, taxPaise: 0, principalPaise: 810_00 },
      { number: 2, penaltyPaise: 50_00, interestPaise: 90_00, taxPaise: 0, principalPaise: 0 },
    ]);
    // A no-cost instalment's GST is paid with its interest, right after it.
    expect(allocateByRule({ order: ['interest', 'principal', 'penalty'], across: 'instalment' }, [owed(1, 0, 100_00, 900_00, 18_00)], 110_00).allocations)
      .toEqual([{ number: 1, penaltyPaise: 0, interestPaise: 100_00, taxPaise: 10_00, principalPaise: 0 }]);
    const over = allocateByRule({ order: ['principal', 'interest', 'penalty'], across: 'instalment' }, dues, 3_000_00);
    expect(over.unallocatedPaise).toBe(3_000_00 - 2_100_00);
    expect(() => allocateByRule({ order: [...COMMON.order], across: 'instalment' }, dues, 0)).toThrow(RangeError);
    expect(() => allocateByRule({ order: [...COMMON.order], across: 'instalment' }, [owed(1, -1, 0, 0)], 10)).toThrow(RangeError);
  });

  it('never takes more than is owed, keeps every paisa, and follows its order', () => {
    const part = fc.integer({ min: 0, max: 50_000_00 });
    fc.assert(fc.property(
      fc.array(fc.tuple(part, part, part, fc.integer({ min: 0, max: 9_000_00 })), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 2_00_000_00 }),
      fc.constantFrom('instalment' as const, 'component' as const),
      fc.shuffledSubarray(['penalty', 'interest', 'principal'] as const, { minLength: 3, maxLength: 3 }),
      (rows, amount, across, order) => {
        const dues = rows.map(([p, i, c, tx], n) => owed(n + 1, p, i, c, tx));
        const { allocations, unallocatedPaise } = allocateByRule({ order: [...order], across }, dues, amount);
        const paid = allocations.reduce((s, a) => s + a.penaltyPaise + a.interestPaise + a.taxPaise + a.principalPaise, 0);
        expect(paid + unallocatedPaise).toBe(amount);
        const total = dues.reduce((s, d) => s + d.penaltyPaise + d.interestPaise + (d.taxPaise ?? 0) + d.principalPaise, 0);
        expect(unallocatedPaise).toBe(Math.max(0, amount - total));
        const field = { penalty: 'penaltyPaise', interest: 'interestPaise', principal: 'principalPaise' } as const;
        const left = dues.map((d) => {
          const a = allocations.find((x) => x.number === d.number);
          return {
            penalty: d.penaltyPaise - (a?.penaltyPaise ?? 0),
            // GST is part of the interest part: settled right after the interest, before the next part.
            interest: d.interestPaise + (d.taxPaise ?? 0) - (a?.interestPaise ?? 0) - (a?.taxPaise ?? 0),
            principal: d.principalPaise - (a?.principalPaise ?? 0),
          };
        });
        for (const a of allocations) {
          // Tax only once the interest of its instalment is paid.
          if (a.taxPaise > 0) expect(a.interestPaise).toBe(dues[a.number - 1]!.interestPaise);
        }
        for (const l of left) for (const k of order) expect(l[k]).toBeGreaterThanOrEqual(0);
        for (const a of allocations) {
          const index = a.number - 1;
          for (const [k, part] of order.entries()) {
            if (a[field[part]] === 0 && !(part === 'interest' && a.taxPaise > 0)) continue;
            if (across === 'instalment') {
              // Nothing of a later instalment while an earlier one still owes; nothing of a later part while an earlier part of the same one owes.
              for (let j = 0; j < index; j++) expect(order.every((p) => left[j]![p] === 0)).toBe(true);
              for (const earlier of order.slice(0, k)) expect(left[index]![earlier]).toBe(0);
            } else {
              for (const earlier of order.slice(0, k)) expect(left.every((l) => l[earlier] === 0)).toBe(true);
              for (let j = 0; j < index; j++) expect(left[j]![part]).toBe(0);
            }
          }
        }
      },
    ), { numRuns: 300 });
  });
});

describe('foreclosure', () => {
  const request: LoanRequest = { pricePaise: 1_20_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '12', periods: 12, advanceInstalments: 0, disbursementDate: '2026-01-10', firstDueDate: '2026-02-10' };
  const schedule = buildProductSchedule(STANDARD_PRODUCT, request);
  const state = (paidCount: number): InstalmentState[] => schedule.instalments.map((r) => ({
    number: r.number, dueDate: r.dueDate, penaltyPaise: 0, scheduledInterestPaise: r.interestPaise,
    interestPaise: r.number <= paidCount ? 0 : r.interestPaise, principalPaise: r.number <= paidCount ? 0 : r.principalPaise,
  }));

  it('is the principal left and the current period\'s interest to date, nothing of later periods', () => {
    // Three paid; 24 April is 14 of the 30 days from 10 April to 10 May.
    const quote = foreclosureQuote(STANDARD_PRODUCT, request.disbursementDate, state(3), '2026-04-24');
    const fourth = schedule.instalments[3]!;
    expect(quote.principalPaise).toBe(schedule.instalments[2]!.balanceAfterPaise);
    expect(quote.interestPaise).toBe(Math.round((fourth.interestPaise * 14) / 30));
    expect(quote.feePaise).toBe(0);
    expect(quote.totalPaise).toBe(quote.principalPaise + quote.interestPaise);
  });

  it('counts interest paid ahead for time that has not run as principal, never charging it twice', () => {
    // On 24 April three instalments are paid (as in the first case) and two more paid ahead: the fourth's interest
    // beyond its 14 days and the fifth's whole interest were paid for time that has not run.
    const ahead = state(5).map((r) => (r.number === 4 || r.number === 5 ? { ...r, interestPaise: 0, principalPaise: 0 } : r));
    const quote = foreclosureQuote(STANDARD_PRODUCT, request.disbursementDate, ahead, '2026-04-24');
    const [fourth, fifth] = [schedule.instalments[3]!, schedule.instalments[4]!];
    const earned = Math.round((fourth.interestPaise * 14) / 30);
    expect(quote.interestPaise).toBe(0);
    expect(quote.paidAheadPaise).toBe(fourth.interestPaise - earned + fifth.interestPaise);
    expect(quote.principalPaise).toBe(schedule.instalments[4]!.balanceAfterPaise - quote.paidAheadPaise);
    // The same loan with nothing paid ahead closes for the same money in all: principal left plus interest earned.
    const plain = foreclosureQuote(STANDARD_PRODUCT, request.disbursementDate, state(3), '2026-04-24');
    expect(quote.totalPaise + fourth.amountPaise + fifth.amountPaise).toBe(plain.totalPaise);
  });

  it('adds what is overdue and unpaid, and the product\'s fee on the principal not yet due', () => {
    const product = { ...STANDARD_PRODUCT, foreclosureFeeBps: 200 };
    const overdue = state(2).map((r) => (r.number === 3 ? { ...r, penaltyPaise: 150_00 } : r));
    const quote = foreclosureQuote(product, request.disbursementDate, overdue, '2026-04-10');
    const third = schedule.instalments[2]!;
    expect(quote.interestPaise).toBe(third.interestPaise);
    expect(quote.penaltyPaise).toBe(150_00);
    expect(quote.feePaise).toBe(Math.round((third.balanceAfterPaise * 2) / 100));
    expect(quote.principalPaise).toBe(schedule.instalments[1]!.balanceAfterPaise);
  });

  it('adds the GST of a no-cost loan: unpaid on what is due, and on the interest accrued', () => {
    const product = { ...STANDARD_PRODUCT, noCost: true, gstOnInterestBps: 1800, instalmentRounding: { multipleOfPaise: 1, mode: 'half_up' as const } };
    const noCost = buildProductSchedule(product, { ...request, annualRate: '15', periods: 6 });
    const rows: InstalmentState[] = noCost.instalments.map((r) => ({
      number: r.number, dueDate: r.dueDate, penaltyPaise: 0, scheduledInterestPaise: r.interestPaise, interestPaise: r.number <= 1 ? 0 : r.interestPaise,
      taxPaise: r.number <= 1 ? 0 : r.taxPaise, principalPaise: r.number <= 1 ? 0 : r.principalPaise,
    }));
    // Instalment 2 (due 10 March) unpaid; 25 March is 15 of the 31 days to 10 April.
    const quote = foreclosureQuote(product, request.disbursementDate, rows, '2026-03-25');
    const [, second, third] = noCost.instalments;
    const accrued = Math.round((third!.interestPaise * 15) / 31);
    expect(quote.interestPaise).toBe(second!.interestPaise + accrued);
    expect(quote.taxPaise).toBe(second!.taxPaise + Math.round((accrued * 18) / 100));
    expect(quote.totalPaise).toBe(quote.principalPaise + quote.interestPaise + quote.taxPaise);
  });

  it('on the day of disbursement is the principal alone; after the last due date, everything unpaid', () => {
    expect(foreclosureQuote(STANDARD_PRODUCT, request.disbursementDate, state(0), request.disbursementDate)).toMatchObject({ principalPaise: 1_20_000_00, interestPaise: 0 });
    const late = foreclosureQuote(STANDARD_PRODUCT, request.disbursementDate, state(10), '2027-06-01');
    expect(late.interestPaise).toBe(schedule.instalments[10]!.interestPaise + schedule.instalments[11]!.interestPaise);
    expect(late.principalPaise).toBe(schedule.instalments[9]!.balanceAfterPaise);
  });
});

describe('the statement', () => {
  it('always reconciles: its balance is what the instalments still owe, over random payments, reversals, penalties, waivers and edits', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('pay' as const), amount: fc.integer({ min: 1, max: 30_000_00 }) }),
      fc.record({ kind: fc.constant('reverse' as const) }),
      fc.record({ kind: fc.constant('penalty' as const), n: fc.integer({ min: 0, max: 11 }), amount: fc.integer({ min: 1, max: 2_000_00 }) }),
      fc.record({ kind: fc.constant('waive' as const), n: fc.integer({ min: 0, max: 11 }), share: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ kind: fc.constant('edit' as const), n: fc.integer({ min: 0, max: 11 }), change: fc.integer({ min: -5_000_00, max: 5_000_00 }) }),
    );
    fc.assert(fc.property(fc.array(op, { maxLength: 40 }), fc.constantFrom('instalment' as const, 'component' as const), (ops, across) => {
      const schedule = buildProductSchedule(STANDARD_PRODUCT, { pricePaise: 80_000_00, downPaymentPaise: 0, processingFeePaise: 0, annualRate: '16', periods: 12, advanceInstalments: 0, disbursementDate: '2026-01-05', firstDueDate: '2026-02-05' });
      const model = schedule.instalments.map((r) => owed(r.number, 0, r.interestPaise, r.principalPaise));
      const events: StatementEvent[] = schedule.instalments.map((r) => ({ kind: 'due', date: r.dueDate, number: r.number, amountPaise: r.amountPaise }));
      const payments: Array<{ id: string; allocations: ReturnType<typeof allocateByRule>['allocations']; amount: number }> = [];
      const day = '2026-08-01';
      ops.forEach((o, i) => {
        if (o.kind === 'pay') {
          const { allocations, unallocatedPaise } = allocateByRule({ order: ['penalty', 'interest', 'principal'], across }, model, o.amount);
          const amount = o.amount - unallocatedPaise;
          if (amount === 0) return;
          for (const a of allocations) {
            const m = model[a.number - 1]!;
            m.penaltyPaise -= a.penaltyPaise; m.interestPaise -= a.interestPaise; m.principalPaise -= a.principalPaise;
          }
          payments.push({ id: `p${i}`, allocations, amount });
          events.push({ kind: 'payment', date: day, id: `p${i}`, amountPaise: amount, allocations });
        } else if (o.kind === 'reverse') {
          const last = payments.pop();
          if (!last) return;
          for (const a of last.allocations) {
            const m = model[a.number - 1]!;
            m.penaltyPaise += a.penaltyPaise; m.interestPaise += a.interestPaise; m.principalPaise += a.principalPaise;
          }
          events.push({ kind: 'reversal', date: day, id: last.id, amountPaise: last.amount });
        } else if (o.kind === 'penalty') {
          model[o.n]!.penaltyPaise += o.amount;
          events.push({ kind: 'penalty', date: day, number: o.n + 1, amountPaise: o.amount, reason: 'late' });
        } else if (o.kind === 'waive') {
          const amount = Math.floor((model[o.n]!.penaltyPaise * o.share) / 100);
          if (amount === 0) return;
          model[o.n]!.penaltyPaise -= amount;
          events.push({ kind: 'waiver', date: day, number: o.n + 1, amountPaise: amount, reason: 'goodwill' });
        } else {
          // An edit changes what is still owed on the instalment (its principal), never below what is paid.
          const m = model[o.n]!;
          const after = Math.max(0, m.principalPaise + o.change);
          events.push({ kind: 'edit', date: day, number: o.n + 1, beforePaise: m.principalPaise, afterPaise: after, reason: 'agreed' });
          m.principalPaise = after;
        }
      });
      const { lines, balancePaise } = buildStatement(events);
      const outstanding = model.reduce((s, m) => s + m.penaltyPaise + m.interestPaise + m.principalPaise, 0);
      expect(balancePaise).toBe(outstanding);
      expect(lines.at(-1)?.balanceAfterPaise ?? 0).toBe(outstanding);
      expect(lines.reduce((s, l) => s + l.deltaPaise, 0)).toBe(outstanding);
    }), { numRuns: 300 });
  });
});
