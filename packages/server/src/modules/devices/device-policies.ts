/**
 * The organisation's device policies, driven by the daily dues run's events: an EMI reminder goes to the
 * phone as an EMI alert; with auto-lock on, a phone whose oldest unpaid instalment is N days overdue is
 * locked; with auto-unlock on, a phone the policy locked is unlocked once nothing is overdue. A phone on a plan alone
 * is released once its plan has ended.
 */
import { translate } from '../../shared/messages.ts';
import { PRODUCT_TYPE, type Language } from '@kisht/domain/constants';
import { coveredUntil, lockCustomer, PLAN_RELEASES } from '../../shared/plan-cover.ts';
import { formatRupees } from '@kisht/domain/money';
import type { Database } from '../../db/database.ts';
import type { DevicesRepository, DeviceRow } from './devices.repository.ts';
import type { CommandChannel } from './command-channel.ts';
import type { DevicesService } from './devices.service.ts';
import type { Notify } from '../events/events.bus.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';

interface EventRow { id: number; customer_id: number; type: 'emi_reminder' | 'emi_overdue'; payload: { due_date?: string; amount_paise?: number; days_past_due?: number; overdue_paise?: number }; language: string | null }

/** Events handled per transaction. */
const EVENT_BATCH = 1000;

/** A phone silent this long is told of to its shop (issue 14), well before the organisation's offline self-lock (7 days by default). */
export const SILENT_PHONE_DAYS = 3;

export function createDevicePolicies(deps: { db: Database; devices: DevicesRepository; channel: CommandChannel; lockScreen: DevicesService['lockScreen']; notify?: Notify }) {
  const { db, devices, channel } = deps;
  const notices = createNotificationsRepository(db);
  const publishLater: { device: DeviceRow; row: Awaited<ReturnType<CommandChannel['write']>>['row'] }[] = [];

  /**
   * Handles each open reminder and overdue event once, a batch per transaction: one statement marks the batch
   * handled, one picks the events a policy acts on (a reminder, or an overdue loan past the lock threshold of an
   * unlocked phone) and one finds their phones; only those write commands.
   */
  async function handleEvents(): Promise<{ alerts: number; locks: number }> {
    const stats = { alerts: 0, locks: 0 };
    // Each batch starts after the last one, so it never walks the index entries of rows handled a moment ago
    // (they stay until vacuum); what another node held is left to it, or to the next call.
    let after = 0;
    for (;;) {
      const claimed = await db.transaction(async (tx) => {
        const ids = (await tx.query<{ id: number }>(
          `UPDATE customer_events SET handled_at = now()
            WHERE id IN (SELECT id FROM customer_events WHERE handled_at IS NULL AND type IN ('emi_reminder', 'emi_overdue') AND id > $2
                          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING id`,
          [EVENT_BATCH, after],
        )).rows.map((r) => r.id);
        if (ids.length === 0) return 0;
        after = Math.max(...ids);
        const events = (await tx.query<EventRow>(
          `SELECT e.id, e.customer_id, e.type, e.payload, c.language
             FROM customer_events e JOIN customers c ON c.id = e.customer_id JOIN organizations o ON o.id = e.org_id
            WHERE e.id = ANY($1::int[])
              AND (e.type = 'emi_reminder'
                   OR (o.auto_lock_days_overdue > 0 AND c.lock_status = 0 AND (e.payload->>'days_past_due')::int >= o.auto_lock_days_overdue))
            ORDER BY e.id`,
          [ids],
        )).rows;
        const phones = new Map((await devices.activeDevices([...new Set(events.map((e) => e.customer_id))], tx)).map((d) => [d.customer_id, d]));
        for (const event of events) {
          const device = phones.get(event.customer_id);
          if (!device) continue;
          if (event.type === 'emi_reminder') {
            const lng = event.language ?? 'en';
            const amount = formatRupees(event.payload.amount_paise ?? 0);
            const message = translate(lng as Language, 'devicePolicy.reminderText', `Your EMI of ${amount} is due on ${event.payload.due_date}.`, { amount, date: event.payload.due_date ?? '' });
            const screen = await deps.lockScreen(event.customer_id, tx);
            const written = await channel.write({
              device, type: 'emi_alert', origin: 'dues', createdBy: device.account_id,
              payload: { message, amount_due: event.payload.amount_paise ?? 0, due_date: event.payload.due_date ?? null, upi: screen.upi, language: event.language },
            }, tx);
            if (written.fresh) publishLater.push({ device, row: written.row });
            stats.alerts++;
          } else {
            const written = await channel.write({ device, type: 'lock', origin: 'dues', createdBy: device.account_id, payload: { lock_screen: await deps.lockScreen(event.customer_id, tx) } }, tx);
            if (written.fresh) publishLater.push({ device, row: written.row });
            stats.locks++;
          }
        }
        return ids.length;
      });
      await flush();
      if (claimed < EVENT_BATCH) return stats;
    }
  }

  /**
   * Unlocks phones the dues policy locked once nothing is overdue, where the organisation wants that. A gateway
   * payment asks for its customers at once (`customerIds`) instead of waiting for the next sweep.
   */
  async function unlockPaid(customerIds?: readonly number[]): Promise<number> {
    const rows = (await db.query<{ customer_id: number }>(
      `SELECT c.id AS customer_id FROM customers c JOIN organizations o ON o.id = c.org_id
        WHERE o.auto_unlock_when_paid AND c.lock_status = 1 ${customerIds ? 'AND c.id = ANY($1::int[])' : ''}
          AND (SELECT d.origin FROM device_commands d WHERE d.customer_id = c.id AND d.type IN ('lock', 'unlock') AND d.state = 'done' ORDER BY d.finished_at DESC LIMIT 1) = 'dues'
          AND NOT EXISTS (SELECT 1 FROM emi_instalments e WHERE e.customer_id = c.id AND e.due_date < (now() AT TIME ZONE 'Asia/Kolkata')::date AND e.paid_paise < e.amount_paise + e.penalty_paise)
          AND NOT EXISTS (SELECT 1 FROM device_commands d WHERE d.customer_id = c.id AND d.type = 'unlock' AND d.state IN ('queued', 'sent', 'delivered'))
        LIMIT 500`,
      customerIds ? [[...customerIds]] : [],
    )).rows;
    for (const { customer_id } of rows) {
      const device = await devices.activeDevice(customer_id);
      if (!device) continue;
      await channel.issue({ device, type: 'unlock', payload: {}, createdBy: device.account_id, origin: 'dues' });
    }
    return rows.length;
  }

  /**
   * Releases phones on a plan alone (decision 023) whose plan has ended without a renewal: anti-theft takes its agent
   * off with `uninstall_antitheft`, family care with `uninstall`; the phone reports done and is released as any phone
   * is. Each is decided again in its own transaction with the customer row locked, as a renewal locks it, so a
   * renewal that commits meanwhile wins and two nodes never ask twice. A release under way or done is not asked
   * again, nor one that failed or expired in the last day (a phone that refuses is asked once a day, not every sweep).
   */
  async function releaseEndedPlans(today: string): Promise<number> {
    const ended = (id: string) => `
      SELECT c.id AS customer_id, p.product_type FROM customers c JOIN products p ON p.id = c.product_id
        LEFT JOIN antitheft_settings s ON s.customer_id = c.id LEFT JOIN family_rules f ON f.customer_id = c.id
       WHERE c.price_paise IS NULL AND p.product_type IN (${PRODUCT_TYPE.ANTI_THEFT}, ${PRODUCT_TYPE.FAMILYCARE}) ${id}
         AND CASE WHEN p.product_type = ${PRODUCT_TYPE.ANTI_THEFT} THEN ${coveredUntil('s.covered_until')} ELSE ${coveredUntil('f.covered_until')} END < $1::date
         AND EXISTS (SELECT 1 FROM devices d WHERE d.customer_id = c.id AND d.active)
         AND NOT EXISTS (SELECT 1 FROM device_commands d WHERE d.customer_id = c.id AND d.type = ANY($2::text[])
                          AND (d.state IN ('queued', 'sent', 'delivered', 'done') OR d.finished_at > now() - interval '1 day'))`;
    const releases = [...PLAN_RELEASES];
    const candidates = (await db.query<{ customer_id: number }>(`${ended('')} LIMIT 500`, [today, releases])).rows;
    let asked = 0;
    for (const { customer_id } of candidates) {
      const written = await db.transaction(async (tx) => {
        await lockCustomer(customer_id, tx);
        const still = (await tx.query<{ product_type: number }>(ended('AND c.id = $3'), [today, releases, customer_id])).rows[0];
        const device = still ? await devices.activeDevice(customer_id, tx) : undefined;
        if (!still || !device) return null;
        const type = still.product_type === PRODUCT_TYPE.ANTI_THEFT ? 'uninstall_antitheft' : 'uninstall';
        return { device, row: (await channel.write({ device, type, payload: {}, createdBy: device.account_id, origin: 'system', dedupe: false }, tx)).row };
      });
      if (!written) continue;
      await channel.publish(written.device, written.row);
      asked++;
    }
    return asked;
  }

  /**
   * Phones that have not checked in for SILENT_PHONE_DAYS days: their shop hears of each once per silence, in the
   * transaction that marks it (a phone switched off, out of charge, or with its agent fought off). A few hundred a
   * sweep, so an outage's worth of phones is told over a few sweeps, not in one long transaction.
   */
  async function tellSilentPhones(): Promise<number> {
    const { told, count } = await db.transaction(async (tx) => {
      const silent = await notices.silentPhones(SILENT_PHONE_DAYS, 200, tx);
      const users = new Set<number>();
      for (const phone of silent) for (const id of await notices.aboutCustomer(phone.customer_id, 'phone_offline', { days: phone.days }, tx)) users.add(id);
      return { told: [...users], count: silent.length };
    });
    if (told.length > 0) deps.notify?.({ type: 'notification', user_ids: told });
    return count;
  }

  async function flush() {
    while (publishLater.length) {
      const item = publishLater.shift()!;
      await channel.publish(item.device, item.row);
    }
  }

  return { handleEvents, unlockPaid, releaseEndedPlans, tellSilentPhones };
}
