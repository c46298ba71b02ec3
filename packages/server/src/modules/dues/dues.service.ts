/**
 * The daily dues run, once per organisation and India date: penalties past the grace days, completed and
 * maturing loans, reminders, and overdue events when a loan's overdue state changed, for the device side. It is
 * durable (the claim and the work commit together, so a crash leaves the day to be run again) and safe to run
 * twice (the claim refuses a second run, and every statement is idempotent on its own). What changed is measured
 * from the organisation's previous run, so a missed day is caught up by the next one.
 */
import { todayInIndia } from '@kisht/domain/format';
import type { Database } from '../../db/database.ts';
import type { DuesRepository, DuesRule } from './dues.repository.ts';
import { startRepeating } from '../../shared/repeat.ts';
import type { Notify } from '../events/events.bus.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';

export interface DuesStats {
  penalties: number;
  completed: number;
  maturing: number;
  reminders: number;
  overdue: number;
}

export function createDuesService(deps: { db: Database; dues: DuesRepository; log?: (message: string, stats: object) => void; notify?: Notify }) {
  const { db, dues } = deps;
  const notices = createNotificationsRepository(db);

  async function runRule(rule: DuesRule, day: string, claim: boolean): Promise<DuesStats | null> {
    const result = await db.transaction(async (tx) => {
      if (claim && !(await dues.claim(rule.org_id, day, tx))) return null;
      const previous = await dues.previousRun(rule.org_id, day, tx);
      // Customers first, then instalments: the order of the writers that change a loan's status (a status change
      // moves the loan's instalments in the same transaction) and of payments, so they queue behind each other.
      const completed = await dues.completeLoans(rule.org_id, day, previous, tx);
      const maturing = await dues.markMaturing(rule, day, tx);
      const penalties = await dues.applyPenalties(rule, day, tx);
      const reminders = await dues.emitReminders(rule, day, tx);
      const overdue = await dues.emitOverdue(rule, day, previous, tx);
      const stats = { penalties, completed, maturing, reminders, overdue };
      if (claim) await dues.finish(rule, day, stats, tx);
      // The day's run tells each network's top member what is overdue (issue 14); a rerun by the operator does not.
      const told = claim ? await notices.duesRun(rule.org_id, day, tx) : [];
      return { stats, told };
    });
    if (!result) return null;
    deps.notify?.({ type: 'dues', org_id: rule.org_id }); // events: penalties and statuses moved across the organisation
    if (result.told.length > 0) deps.notify?.({ type: 'notification', user_ids: result.told });
    return result.stats;
  }

  return {
    /** Runs every organisation's day that has not run yet; returns what each run did. */
    async runDue(day: string = todayInIndia()): Promise<Map<number, DuesStats>> {
      const done = new Map<number, DuesStats>();
      const failures: unknown[] = [];
      for (const rule of await dues.rules()) {
        // One organisation's failure (its day stays unclaimed and is retried) must not stop the others.
        try {
          const stats = await runRule(rule, day, true);
          if (stats) {
            done.set(rule.org_id, stats);
            deps.log?.(`dues run for organisation ${rule.org_id} on ${day}`, stats);
          }
        } catch (error) {
          failures.push(error);
        }
      }
      if (done.size > 0) await dues.pruneDuesSummaries();
      if (failures.length > 0) throw new AggregateError(failures, `dues run failed for ${failures.length} organisation(s)`);
      return done;
    },
    /** Runs one organisation's day again without the claim (operator use); the statements are idempotent. */
    async rerun(orgId: number, day: string): Promise<DuesStats | null> {
      const rule = (await dues.rules()).find((r) => r.org_id === orgId);
      return rule ? runRule(rule, day, false) : null;
    },
  };
}
export type DuesService = ReturnType<typeof createDuesService>;

/** Checks every `intervalMs` whether today's run is due; the first check happens at once. */
export function startDuesScheduler(service: DuesService, intervalMs: number, onError: (error: unknown) => void): () => void {
  return startRepeating(() => service.runDue(), intervalMs, onError, true);
}
