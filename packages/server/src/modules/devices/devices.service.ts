/**
 * The retailer's side of the device channel: enrolment (EMM QR, deep link), every device action of the
 * specification with its checks (switches, section 6 and plan rule, OTPs), offline codes, schedules, bulk
 * lock/unlock, SIM changes and the device panel. The phone's side is the command channel.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isAntiTheftProduct, isDeviceActionAllowed, offeredActions, offeredPlanActions, SIM_TRACKING_COMMANDS, type DeviceAction, type ProvisioningType } from '@kisht/domain/device-actions';
import { INSTALL_STATUS, PROVISIONING_TYPE } from '@kisht/domain/constants';
import { HOTP_LOOK_AHEAD, offlineCode, oucCode, oucStep, OUC_STEP_SECONDS } from '@kisht/protocol/offline-codes';
import { RING_SECONDS, type CheckInBody, type LockScreen, type LockScreenClaim, type OfflineLogEntry, type Sim } from '@kisht/protocol/messages';
import { upiPayLink } from '@kisht/domain/upi';
import { commandTopic, deviceIdOf, deviceUsername, eventTopic } from '@kisht/protocol/topics';
import { assertAccess } from '../../plugins/access.ts';
import { accessFor } from '@kisht/domain/device-access';
import type { Database, Queryable } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type {
  Batch, BatchBody, DeepLink, DeviceCommand, DeviceEnrolBody, DeviceEnrolled, DevicePanel, EmmCode, OfflineCode, Schedule, SimChange,
} from '@kisht/contract/devices';
import type { CustomersService } from '../customers/customers.service.ts';
import type { CustomerRow, CustomersRepository, Viewer } from '../customers/customers.repository.ts';
import { ownRetailerOf } from '../customers/customers.repository.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { CommandRow, DeviceRow, DevicesRepository } from './devices.repository.ts';
import { createCommandChannel, DEFAULT_TTL_MINUTES, type Transport } from './command-channel.ts';
import type { DeviceAccounts } from '../../broker/dynsec.ts';
import { issueEnrolmentToken, sha256 } from './enrolment.ts';
import type { Notify } from '../events/events.bus.ts';
import type { SmsQueue } from '../sms-queue/sms-queue.worker.ts';
import { createNotificationsRepository } from '../notifications/notifications.repository.ts';
import { createAntitheftRepository } from '../antitheft/antitheft.repository.ts';
import { simAlertFor } from '../antitheft/sim-alert.ts';

export interface AgentSettings {
  publicUrl: string;
  /** The broker URL phones connect to. */
  mqttUrl: string;
  component: string;
  apkUrl: string;
  apkChecksum: string;
  tokenTtlHours: number;
  checkInSeconds: number;
}

/** Chunks of a bulk batch written at once after the answer, on as many of the pool's connections. */
const BATCH_CHUNKS_AT_ONCE = 3;
/** Customers one bulk batch takes at most (a filter's matches beyond are left out, newest first). */
const BATCH_MAX = 20_000;
/**
 * How long a batch's writer may go without finishing a chunk before the device sweep of any node takes the batch
 * over (decision 017). A writer slower than that is only joined, never doubled: each target is written once.
 */
const BATCH_LEASE_SECONDS = 30;
const isDeviceId = (id: string) => deviceIdOf(id) !== null;
/** The broker password is a random 32-byte secret, stored as its SHA-256. */
const samePassword = (password: string, storedHash: string) => timingSafeEqual(Buffer.from(sha256(password), 'hex'), Buffer.from(storedHash, 'hex'));
const BATCH_ITEMS = 500;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCommand(row: CommandRow): DeviceCommand {
  // A new PIN is the customer's secret: the console sees that it was set, not what it is.
  const payload = row.type === 'pin_change' ? { pin: '****' } : row.payload;
  return {
    id: row.id, seq: row.seq, type: row.type, state: row.state, result: row.result, payload, origin: row.origin,
    created_at: row.created_at.toISOString(), sent_at: iso(row.sent_at), delivered_at: iso(row.delivered_at), finished_at: iso(row.finished_at), expires_at: row.expires_at.toISOString(),
  };
}

export function createDevicesService(deps: {
  db: Database;
  devices: DevicesRepository;
  customers: CustomersService;
  customerRows: CustomersRepository;
  auth: Pick<AuthService, 'consumeCustomerOtp'>;
  agent: AgentSettings;
  transport: Transport;
  /** Broker accounts to keep in step with enrolments (Mosquitto with dynamic security); the embedded broker asks us instead. */
  accounts?: DeviceAccounts;
  log: (message: string, error?: unknown) => void;
  /** Server events (modules/events): enrolments, commands, schedules and SIM changes reach open screens. */
  notify?: Notify;
  /** Customers a bulk batch writes per transaction (Limits.bulkChunk). */
  bulkChunk?: number;
  /** The SMS queue: SIM change alerts of anti-theft phones (none are sent without it). */
  sms?: Pick<SmsQueue, 'enqueue' | 'afterEnqueue'>;
}) {
  const { db, devices, agent } = deps;
  const antitheft = createAntitheftRepository(db);
  const notices = createNotificationsRepository(db);
  const bulkChunk = deps.bulkChunk ?? 500;

  /** A claim older than this is no longer news to the customer: the lock screen leaves it out. */
  const CLAIM_SHOWN_DAYS = 7;

  /**
   * What the lock screens of these customers show: amount due now, the retailer's UPI QR and contact, and what
   * became of the customer's latest "I paid" of the last CLAIM_SHOWN_DAYS days.
   */
  async function lockScreens(customerIds: number[], q: Queryable = db, message: string | null = null): Promise<Map<number, LockScreen>> {
    const res = await q.query<{
      id: number; amount_due: string; retailer_name: string; retailer_mobile: string; upi_id: string | null; upi_name: string | null; language: string | null;
      first_name: string; last_name: string; pay_now: boolean; plan_only: boolean;
      claim_status: LockScreenClaim['status'] | null; claim_amount: number | null; claim_reason: string | null; claim_at: Date | null;
    }>(
      `SELECT c.id, coalesce((SELECT sum(e.amount_paise + e.penalty_paise - e.paid_paise) FROM emi_instalments e
                         WHERE e.customer_id = c.id AND e.due_date <= (now() AT TIME ZONE 'Asia/Kolkata')::date AND e.paid_paise < e.amount_paise + e.penalty_paise), 0) AS amount_due,
              coalesce(nullif(trim(r.first_name || ' ' || r.last_name), ''), r.mobile) AS retailer_name, r.mobile AS retailer_mobile, r.upi_id, r.upi_name, c.language,
              c.first_name, c.last_name, coalesce((o.features->>'payment_gateway')::boolean, false) AS pay_now, c.price_paise IS NULL AS plan_only,
              pc.status AS claim_status, pc.amount_paise AS claim_amount, pc.decision_reason AS claim_reason, pc.updated_at AS claim_at
         FROM customers c JOIN users r ON r.id = c.retailer_id JOIN organizations o ON o.id = c.org_id
         LEFT JOIN LATERAL (SELECT p.status, p.amount_paise, p.decision_reason, p.updated_at FROM payment_claims p
                             WHERE p.customer_id = c.id AND p.created_at > now() - make_interval(days => $2)
                             ORDER BY p.created_at DESC, p.id DESC LIMIT 1) pc ON true
        WHERE c.id = ANY($1::int[])`,
      [customerIds, CLAIM_SHOWN_DAYS],
    );
    return new Map(res.rows.map((row) => {
      // Never below 0: the phone hides the amount line when nothing is due (no "Amount due Rs 0").
      const amount = Math.max(0, Number(row.amount_due));
      // The shop's own UPI ID, as set on Payment QR (or by the operator). No tr: this is a payment to a person's
      // address, not an order of ours, and payer apps treat a reference on a personal address as a merchant payment.
      // A phone on a plan alone owes no EMI: its lock screen offers no payment (decision 023).
      const upi = row.upi_id && !row.plan_only
        ? upiPayLink({ vpa: row.upi_id, name: row.upi_name ?? row.retailer_name, amountPaise: amount, note: `EMI ${row.first_name} ${row.last_name}` })
        : null;
      const claim: LockScreenClaim | null = row.claim_status
        ? { status: row.claim_status, amount_paise: row.claim_amount, reason: row.claim_status === 'rejected' ? row.claim_reason : null, at: row.claim_at!.toISOString() }
        : null;
      // "Pay now" only where the organisation's gateway switch is on; "I paid" is offered on every lock screen.
      return [row.id, { amount_due: amount, upi, retailer_name: row.retailer_name, retailer_mobile: row.retailer_mobile, message, language: row.language, pay_now: row.pay_now && !row.plan_only, claim }];
    }));
  }

  async function lockScreen(customerId: number, q: Queryable = db, message: string | null = null): Promise<LockScreen> {
    return (await lockScreens([customerId], q, message)).get(customerId)!;
  }

  const channel = createCommandChannel({
    db, devices, transport: deps.transport, lockScreen, checkInSeconds: agent.checkInSeconds, log: deps.log, ...(deps.notify ? { notify: deps.notify } : {}),
    ...(deps.accounts ? { onRelease: (id: string) => deps.accounts!.remove(id) } : {}),
  });

  async function deviceOf(customer: CustomerRow): Promise<DeviceRow> {
    const device = await devices.activeDevice(customer.id);
    if (!device) throw new AppError('DEVICE_NOT_ENROLLED');
    return device;
  }

  /** PIN change: phones our agent or AMAPI manages, while unlocked. */
  function pinChangeOffered(customer: CustomerRow): boolean {
    return customer.lock_status === 0 && (customer.provisioning_type === PROVISIONING_TYPE.DPC || customer.provisioning_type === PROVISIONING_TYPE.AMAPI);
  }

  async function loanClosed(customer: CustomerRow): Promise<boolean> {
    if (customer.install_status === INSTALL_STATUS.emis_completed) return true;
    const open = (await db.query<{ open: string }>('SELECT count(*) AS open FROM emi_instalments WHERE customer_id = $1 AND paid_paise < amount_paise + penalty_paise', [customer.id])).rows[0]!;
    return Number(open.open) === 0;
  }

  function context(customer: CustomerRow) {
    return { provisioningType: customer.provisioning_type as ProvisioningType, productType: customer.product_type, locked: customer.lock_status === 1, allowList: customer.allowed_actions };
  }

  /** Checks the caller's switches and the action rule, then writes and publishes the command. */
  /**
   * Checks the caller's switches, that the customer is theirs and has a phone, and the action rule; only then
   * builds the payload (`payload` may read the customer's loan) and writes and publishes the command.
   */
  async function act(caller: RequestAuth, customerId: number, action: DeviceAction | 'pin_change' | 'unclaim' | 'ring', payload: object | ((customer: CustomerRow) => Promise<object>)): Promise<DeviceCommand> {
    assertAccess(caller, accessFor(action));
    const customer = await deps.customers.visible(caller, customerId);
    const device = await deviceOf(customer);
    const allowed = action === 'pin_change' ? pinChangeOffered(customer)
      : action === 'unclaim' ? await loanClosed(customer)
        : action === 'ring' ? isAntiTheftProduct(customer.product_type)
          : isDeviceActionAllowed(action, context(customer));
    if (!allowed) {
      throw new AppError(action === 'unclaim' ? 'LOAN_OPEN' : 'ACTION_NOT_ALLOWED');
    }
    if (action === 'fetch_location') await devices.wantLocation(device.id);
    const body = typeof payload === 'function' ? await payload(customer) : payload;
    return toCommand(await channel.issue({ device, type: action, payload: body, createdBy: caller.userId, origin: 'retailer' }));
  }

  /**
   * Records a phone's SIM change; `take` claims the event's number in the same transaction (false: seen before).
   * On an anti-theft phone the owner's alternate number and the retailer are sent a text, and lost mode goes on
   * when the owner chose it (decision 022); the organisation's lock_on_sim_change locks any phone.
   */
  async function onSimChange(device: DeviceRow, oldSims: Sim[], newSims: Sim[], location: unknown, at: string, take: (tx: Queryable) => Promise<boolean>): Promise<boolean> {
    const policy = await devices.orgPolicy(device.org_id);
    const written = await db.transaction(async (tx) => {
      if (!(await take(tx))) return 'seen' as const;
      const alert = simAlertFor(await antitheft.simAlertTarget(device.customer_id, tx), oldSims, newSims, at);
      const texts = deps.sms ? (alert?.messages ?? []) : [];
      await devices.addSimChange({
        device_id: device.id, customer_id: device.customer_id, account_id: device.account_id, old_sims: oldSims, new_sims: newSims, location, changed_at: at,
        alerted_to: texts.map((m) => m.to), lost_mode_on: !!alert?.lostMode,
      }, tx);
      await devices.setSims(device.id, newSims, tx);
      await devices.report(device.id, { sims: newSims }, false, tx);
      for (const message of texts) await deps.sms!.enqueue({ to: message.to, body: message.body, purpose: 'sim_alert' }, true, tx);
      const customer = (await tx.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [device.customer_id])).rows[0]!;
      const lock = !policy.lock_on_sim_change || customer.lock_status === 1
        ? null
        : await channel.write({ device, type: 'lock', payload: { lock_screen: await lockScreen(device.customer_id, tx) }, createdBy: device.account_id, origin: 'sim_change' }, tx);
      const lost = alert?.lostMode ? await channel.write({ device, type: 'antitheft_lost_mode', payload: alert.lostMode, createdBy: device.account_id, origin: 'sim_change' }, tx) : null;
      // The shop's bell, whatever the product (issue 14): the operator of the SIM now in the phone, where it says.
      const told = await notices.aboutCustomer(device.customer_id, 'sim_change', { operator: newSims.find((sim) => sim.operator)?.operator ?? null }, tx);
      return { lock, lost, texted: texts.length > 0, told };
    });
    if (written === 'seen') return false;
    deps.notify?.({ type: 'sim_change', customer_ids: [device.customer_id] }); // events
    deps.notify?.({ type: 'notification', user_ids: written.told });
    if (written.texted) await deps.sms!.afterEnqueue();
    for (const command of [written.lock, written.lost]) if (command?.fresh) await channel.publish(device, command.row);
    return true;
  }
  channel.onSimChange = onSimChange;

  /** Bulk batches this node is writing after having answered (or took over); none starts once stopping. */
  const writing = new Set<{ batchId: string; work: Promise<void> }>();
  let stopping = false;

  return {
    channel,
    lockScreen,
    /** Set by the AMAPI provider when it is configured: the enrolment QR for AMAPI customers. */
    amapiQr: undefined as ((caller: RequestAuth, customer: CustomerRow) => Promise<EmmCode>) | undefined,
    /** Set by family care: commands a phone gets as it enrols (the rules set before it), written in the enrolment's transaction. */
    onEnrolled: undefined as ((customerId: number, by: number, tx: Queryable) => Promise<{ device: DeviceRow; row: CommandRow } | null>) | undefined,

    /** generate_emm_code: a fresh single-use token inside the Android Enterprise provisioning payload. */
    async emmCode(caller: RequestAuth, customerId: number): Promise<EmmCode> {
      const customer = await deps.customers.visible(caller, customerId);
      // AMAPI phones get the Android Management API's enrolment QR; Apple and LINKFL have their own links.
      if (customer.provisioning_type === PROVISIONING_TYPE.AMAPI && this.amapiQr) return this.amapiQr(caller, customer);
      const { token, expires } = await issueEnrolmentToken(devices, caller, customer, PROVISIONING_TYPE.DPC, agent.tokenTtlHours);
      const payload = {
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': agent.component,
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION': agent.apkUrl,
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM': agent.apkChecksum,
        'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED': true,
        'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { 'kisht.server': agent.publicUrl, 'kisht.token': token, 'kisht.v': '1' },
      };
      return { customer_id: customer.id, expires_at: expires.toISOString(), qr_payload: JSON.stringify(payload) };
    },

    /** get_deep_link: the LINKFL enrolment link (the app opens it and enrols with the token). */
    async deepLink(caller: RequestAuth, customerId: number): Promise<DeepLink> {
      const customer = await deps.customers.visible(caller, customerId);
      const { token, expires } = await issueEnrolmentToken(devices, caller, customer, PROVISIONING_TYPE.LINKFL, agent.tokenTtlHours);
      return { customer_id: customer.id, link: `kisht://enrol?${new URLSearchParams({ server: agent.publicUrl, token }).toString()}`, expires_at: expires.toISOString() };
    },

    /** The phone's side: a good token and a matching IMEI give the phone its own credentials, once. */
    async enrol(body: DeviceEnrolBody): Promise<DeviceEnrolled> {
      const deviceId = randomUUID();
      const password = randomBytes(32).toString('base64url');
      const offlineSecret = randomBytes(32).toString('base64url');
      const enrolled = await db.transaction(async (tx) => {
        const token = await devices.takeToken(sha256(body.token), tx);
        const customer = token ? await deps.customerRows.findInAccount(token.account_id, token.customer_id, tx) : undefined;
        const imeis = [body.imei1, body.imei2].filter(Boolean);
        // A wrong token and a wrong phone look the same from outside; Apple and AMAPI phones enrol their own way.
        const agentManaged = customer && (customer.provisioning_type === PROVISIONING_TYPE.DPC || customer.provisioning_type === PROVISIONING_TYPE.LINKFL);
        if (!customer || !agentManaged || !imeis.some((i) => i === customer.imei1 || i === customer.imei2)) throw new AppError('ENROLMENT_INVALID');
        const previous = await devices.create({
          id: deviceId, customer_id: customer.id, org_id: customer.org_id, account_id: customer.account_id, mqtt_password_hash: sha256(password),
          offline_secret: offlineSecret, imei1: body.imei1, imei2: body.imei2 ?? null, serial_number: body.serial_number ?? null, sims: body.sims ?? [],
        }, tx);
        // The broker account is made before commit: if the broker refuses, the token stays unused.
        if (deps.accounts) await deps.accounts.add(deviceId, password);
        await devices.markInstalled(customer.id, tx);
        // A phone starts unlocked; a lock from before enrolment would have had no phone to go to.
        await devices.setLockStatus(customer.id, false, tx);
        const waiting = await this.onEnrolled?.(customer.id, customer.retailer_id, tx);
        return { previous, customerId: customer.id, waiting };
      });
      deps.notify?.({ type: 'customer', customer_ids: [enrolled.customerId] }); // events
      if (enrolled.waiting) await channel.publish(enrolled.waiting.device, enrolled.waiting.row);
      const replaced = enrolled.previous;
      // The replaced phone's account goes once the new one is in place.
      if (replaced && deps.accounts) await deps.accounts.remove(replaced).catch((error: unknown) => deps.log('removing the replaced phone\'s broker account failed', error));
      return {
        device_id: deviceId,
        mqtt: { url: agent.mqttUrl, username: deviceUsername(deviceId), password, command_topic: commandTopic(deviceId), event_topic: eventTopic(deviceId) },
        offline_secret: offlineSecret,
        check_in_seconds: agent.checkInSeconds,
      };
    },

    /** Lock with the lock screen the phone shows (amount due, UPI QR, retailer contact). */
    async lock(caller: RequestAuth, customerId: number, message: string | null = null): Promise<DeviceCommand> {
      return act(caller, customerId, 'lock', async (customer) => ({ lock_screen: await lockScreen(customer.id, db, message) }));
    },
    unlock: (caller: RequestAuth, customerId: number) => act(caller, customerId, 'unlock', {}),
    toggle: (caller: RequestAuth, customerId: number, action: DeviceAction, on: boolean) => act(caller, customerId, action, { on }),
    /**
     * Lost mode with a message and a number to call. Anti-theft lost mode turned on without them shows what the owner
     * chose (decision 022), as a SIM change would: the owner's message, and the owner's number or the retailer's.
     */
    lostMode: (caller: RequestAuth, customerId: number, action: 'lost_mode' | 'antitheft_lost_mode', body: { on: boolean; message?: string; phone?: string }) =>
      act(caller, customerId, action, async (customer) => {
        if (action !== 'antitheft_lost_mode' || !body.on || (body.message && body.phone)) return { on: body.on, message: body.message ?? null, phone: body.phone ?? null };
        const owner = await antitheft.simAlertTarget(customer.id, db);
        return { on: true, message: body.message ?? owner.message, phone: body.phone ?? owner.contact_mobile ?? owner.retailer_mobile };
      }),
    simTracking(caller: RequestAuth, customerId: number, command: string): Promise<DeviceCommand> {
      const action = (Object.keys(SIM_TRACKING_COMMANDS) as (keyof typeof SIM_TRACKING_COMMANDS)[]).find((a) => Object.values(SIM_TRACKING_COMMANDS[a]).includes(command as never))!;
      return act(caller, customerId, action, { command });
    },
    wallpaper: (caller: RequestAuth, customerId: number, text: string, policy: 'alert' | 'wallpaper') => act(caller, customerId, 'wallpaper', { text, policy }),
    once: (caller: RequestAuth, customerId: number, action: DeviceAction) => act(caller, customerId, action, {}),
    pinChange: (caller: RequestAuth, customerId: number, pin: string) => act(caller, customerId, 'pin_change', { pin }),

    /** Rings an anti-theft phone (decision 022): an alarm at full volume for RING_SECONDS, to find it nearby. */
    ring: (caller: RequestAuth, customerId: number) => act(caller, customerId, 'ring', { seconds: RING_SECONDS }),

    /** EMI alert to the phone: the message and what is due now, in the customer's language. */
    async emiAlert(caller: RequestAuth, customerId: number, message: string | undefined, alertId?: number): Promise<DeviceCommand> {
      const command = await act(caller, customerId, 'emi_alert', async (customer) => {
        const screen = await lockScreen(customer.id);
        const due = (await db.query<{ due: string | null }>(
          `SELECT to_char(min(due_date), 'YYYY-MM-DD') AS due FROM emi_instalments WHERE customer_id = $1 AND paid_paise < amount_paise + penalty_paise`, [customer.id],
        )).rows[0]?.due ?? null;
        return { message: message ?? '', amount_due: screen.amount_due, due_date: due, upi: screen.upi, language: screen.language };
      });
      if (alertId) await db.query('UPDATE emi_alerts SET command_id = $2 WHERE id = $1', [alertId, command.id]);
      return command;
    },

    /** Uninstall (and anti-theft uninstall): the customer's UNINSTALL OTP, and where the retailer stood. */
    async uninstall(caller: RequestAuth, body: { customer_id: number; request_id: string; otp: string; latitude: string; longitude: string }, action: 'uninstall' | 'uninstall_antitheft'): Promise<DeviceCommand> {
      assertAccess(caller, accessFor(action));
      const customer = await deps.customers.visible(caller, body.customer_id);
      const device = await deviceOf(customer);
      if (!isDeviceActionAllowed(action, context(customer))) throw new AppError('ACTION_NOT_ALLOWED');
      const otp = await deps.auth.consumeCustomerOtp(body.request_id, body.otp, 'UNINSTALL', caller.userId);
      if (otp.mobile !== customer.mobile && otp.mobile !== customer.alt_mobile) throw new AppError('OTP_INVALID');
      // Where the retailer stood is kept with the command ("Bypassed" when the console could not tell).
      const payload = { requested_from: { latitude: body.latitude, longitude: body.longitude } };
      return toCommand(await channel.issue({ device, type: action, payload, createdBy: caller.userId, origin: 'retailer' }));
    },

    /** Unclaim: release the phone from management once the loan is closed. */
    unclaim: (caller: RequestAuth, customerId: number) => act(caller, customerId, 'unclaim', {}),

    async commands(caller: RequestAuth, customerId: number): Promise<DeviceCommand[]> {
      const customer = await deps.customers.visible(caller, customerId);
      return (await devices.commands(customer.id)).map(toCommand);
    },

    /** The device panel: the phone and what it reported, the offered actions, the latest commands. */
    async panel(caller: RequestAuth, customerId: number): Promise<DevicePanel> {
      const customer = await deps.customers.visible(caller, customerId);
      const device = await devices.activeDevice(customer.id);
      const offered = offeredActions(context(customer));
      const plan = offeredPlanActions(context(customer));
      return {
        device: device ? {
          id: device.id, imei1: device.imei1, imei2: device.imei2, serial_number: device.serial_number, channel: device.channel,
          enrolled_at: device.created_at.toISOString(), last_check_in_at: iso(device.last_check_in_at), reported: device.reported,
        } : null,
        lock_status: customer.lock_status,
        actions: {
          main: [...offered.main, ...plan.filter((a) => a !== 'uninstall_antitheft'), ...(device && pinChangeOffered(customer) ? ['pin_change'] : [])],
          info: [...offered.info, ...plan.filter((a) => a === 'uninstall_antitheft'), ...(device && (await loanClosed(customer)) ? ['unclaim'] : [])],
        },
        commands: (await devices.commands(customer.id, 20)).map(toCommand),
      };
    },

    /** offline_lock_unlock: the next HOTP code for the phone to take without a network. */
    async offlineCode(caller: RequestAuth, customerId: number, action: 'lock' | 'unlock'): Promise<OfflineCode> {
      assertAccess(caller, accessFor(action));
      const customer = await deps.customers.visible(caller, customerId);
      const device = await deviceOf(customer);
      const counter = await devices.nextCodeCounter(device.id, action, HOTP_LOOK_AHEAD);
      return { customer_id: customer.id, purpose: action, code: offlineCode(device.offline_secret, action, counter), valid_until: null };
    },

    /** ouc-code: the time-based unlock code, good for this 10-minute step and the next. */
    async oucCode(caller: RequestAuth, customerId: number): Promise<OfflineCode> {
      assertAccess(caller, accessFor('unlock'));
      const customer = await deps.customers.visible(caller, customerId);
      const device = await deviceOf(customer);
      const now = Date.now();
      return { customer_id: customer.id, purpose: 'ouc', code: oucCode(device.offline_secret, now), valid_until: new Date((oucStep(now) + 2) * OUC_STEP_SECONDS * 1000).toISOString() };
    },

    /** Device bypass code: needs the customer's BYPASS_CODE OTP. */
    async bypassCode(caller: RequestAuth, body: { customer_id: number; request_id: string; otp: string }): Promise<OfflineCode> {
      assertAccess(caller, accessFor('unlock'));
      const customer = await deps.customers.visible(caller, body.customer_id);
      const device = await deviceOf(customer);
      const otp = await deps.auth.consumeCustomerOtp(body.request_id, body.otp, 'BYPASS_CODE', caller.userId);
      if (otp.mobile !== customer.mobile && otp.mobile !== customer.alt_mobile) throw new AppError('OTP_INVALID');
      const counter = await devices.nextCodeCounter(device.id, 'bypass', HOTP_LOOK_AHEAD);
      return { customer_id: customer.id, purpose: 'bypass', code: offlineCode(device.offline_secret, 'bypass', counter), valid_until: null };
    },

    async offlineLog(caller: RequestAuth, customerId: number) {
      assertAccess(caller, { lockAccess: ['read'] });
      const customer = await deps.customers.visible(caller, customerId);
      return (await devices.offlineLog(customer.id)).map((r) => ({ n: Number(r.n), kind: r.kind, ref: r.ref, happened_at: r.happened_at.toISOString(), received_at: r.received_at.toISOString() }));
    },

    async simChanges(caller: RequestAuth, query: { customer_id?: number; page: number; limit: number }): Promise<{ total: number; page: number; limit: number; items: SimChange[] }> {
      if (query.customer_id) await deps.customers.visible(caller, query.customer_id);
      const rows = await devices.simChanges(caller.accountId, {
        ...(query.customer_id ? { customerId: query.customer_id } : {}), retailerId: ownRetailerOf(caller), limit: query.limit, offset: (query.page - 1) * query.limit,
      });
      return {
        total: Number(rows[0]?.total ?? 0),
        page: query.page,
        limit: query.limit,
        items: rows.map((r) => ({
          id: r.id, customer_id: r.customer_id, customer_name: `${r.first_name} ${r.last_name}`, mobile: r.mobile, imei1: r.imei1,
          old_sims: r.old_sims, new_sims: r.new_sims, location: (r.location as SimChange['location']) ?? null, changed_at: r.changed_at.toISOString(),
          alerted_to: r.alerted_to, lost_mode_on: r.lost_mode_on,
        })),
      };
    },

    // Schedules ----------------------------------------------------------------------------------------------

    async schedule(caller: RequestAuth, body: { customer_id: number; action: 'lock' | 'unlock'; run_at: string; note?: string }): Promise<Schedule> {
      assertAccess(caller, accessFor(body.action));
      const customer = await deps.customers.visible(caller, body.customer_id);
      await deviceOf(customer);
      if (Date.parse(body.run_at) <= Date.now()) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'run_at', message: 'must be in the future', rule: 'future_time' }] });
      const res = await db.query<ScheduleRow>(
        `INSERT INTO device_schedules (customer_id, account_id, action, run_at, note, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${SCHEDULE_COLUMNS}`,
        [customer.id, caller.accountId, body.action, body.run_at, body.note ?? null, caller.userId],
      );
      deps.notify?.({ type: 'schedule', customer_ids: [customer.id] }); // events
      return toSchedule(res.rows[0]!);
    },

    async schedules(caller: RequestAuth, customerId: number): Promise<Schedule[]> {
      const customer = await deps.customers.visible(caller, customerId);
      const res = await db.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM device_schedules WHERE customer_id = $1 ORDER BY run_at DESC LIMIT 50`, [customer.id]);
      return res.rows.map(toSchedule);
    },

    async cancelSchedule(caller: RequestAuth, scheduleId: number): Promise<Schedule> {
      const row = (await db.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM device_schedules WHERE id = $1 AND account_id = $2`, [scheduleId, caller.accountId])).rows[0];
      if (!row) throw new AppError('NOT_FOUND');
      await deps.customers.visible(caller, row.customer_id);
      assertAccess(caller, accessFor(row.action));
      const res = await db.query<ScheduleRow>(`UPDATE device_schedules SET state = 'cancelled' WHERE id = $1 AND state = 'scheduled' RETURNING ${SCHEDULE_COLUMNS}`, [scheduleId]);
      if (!res.rows[0]) throw new AppError('NOTHING_DUE');
      deps.notify?.({ type: 'schedule', customer_ids: [row.customer_id] }); // events
      return toSchedule(res.rows[0]);
    },

    /** Runs the schedules that are due, each once (the row is claimed in the transaction that writes its command). */
    async runSchedules(): Promise<number> {
      let ran = 0;
      for (;;) {
        const outcome = await db.transaction(async (tx) => {
          const due = (await tx.query<ScheduleRow & { created_by: number }>(
            `SELECT ${SCHEDULE_COLUMNS}, created_by FROM device_schedules WHERE state = 'scheduled' AND run_at <= now() ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
          )).rows[0];
          if (!due) return null;
          const device = await devices.activeDevice(due.customer_id, tx);
          const customer = (await tx.query<{ lock_status: number }>('SELECT lock_status FROM customers WHERE id = $1', [due.customer_id])).rows[0]!;
          const already = customer.lock_status === (due.action === 'lock' ? 1 : 0);
          if (!device || already) {
            await tx.query(`UPDATE device_schedules SET state = 'skipped' WHERE id = $1`, [due.id]);
            return { device: null, written: null, customerId: due.customer_id };
          }
          const payload = due.action === 'lock' ? { lock_screen: await lockScreen(due.customer_id, tx, due.note) } : {};
          const written = await channel.write({ device, type: due.action, payload, createdBy: due.created_by, origin: 'schedule' }, tx);
          await tx.query(`UPDATE device_schedules SET state = 'done', command_id = $2 WHERE id = $1`, [due.id, written.row.id]);
          return { device, written, customerId: due.customer_id };
        });
        if (!outcome) return ran;
        ran++;
        deps.notify?.({ type: 'schedule', customer_ids: [outcome.customerId] }); // events
        if (outcome.device && outcome.written?.fresh) await channel.publish(outcome.device, outcome.written.row);
      }
    },

    // Multiple lock/unlock -----------------------------------------------------------------------------------

    /**
     * Stores the batch with its targets and writes the first chunk in one transaction, then answers; the rest
     * is written after the answer, a chunk per transaction, each published as it commits (decision 017). The
     * answer counts the targets not written yet as queued.
     */
    async startBatch(caller: RequestAuth, body: BatchBody): Promise<Batch> {
      assertAccess(caller, accessFor(body.action));
      let ids = body.customer_ids ?? [];
      if (!body.customer_ids) {
        if (!body.filter) throw new AppError('VALIDATION_FAILED', { details: [{ field: 'customer_ids', message: 'choose customers or a filter', rule: 'required' }] });
        // What the caller's list shows under the same filter, for phones the action changes.
        ids = await deps.customers.listIds(caller, {
          status: (body.filter.status ?? 'install') as never, lock_status: body.action === 'lock' ? 0 : 1, ...(body.filter.search ? { search: body.filter.search } : {}),
        }, BATCH_MAX);
      }
      // All or nothing, like a profile read: one customer the caller may not see (another network's, or the
      // parent's for a mini-retailer) refuses the whole request before anything is written or named.
      ids = [...new Set(ids)];
      if ((await deps.customerRows.visibleTo(caller, ids)).length !== ids.length) throw new AppError('NOT_FOUND');
      const job: BatchJob = { id: randomUUID(), action: body.action, viewer: caller };
      const first = await db.transaction(async (tx) => {
        await devices.createBatch({ id: job.id, account_id: caller.accountId, action: body.action, created_by: caller.userId, customer_ids: ids, lease_seconds: BATCH_LEASE_SECONDS }, tx);
        const chunk = await writeBatchChunk(job, tx);
        return { ...chunk, finished: await devices.finishBatch(job.id, tx) };
      });
      const answer = await this.batch(caller, job.id);
      // Publishing the first chunk and writing the rest start after the answer, so they do not hold it up.
      setImmediate(() => keepWriting(job, first.written, !first.finished));
      return answer;
    },

    async batch(caller: RequestAuth, batchId: string): Promise<Batch> {
      const batch = await devices.batchState(batchId, caller.accountId);
      const own = ownRetailerOf(caller);
      if (!batch || (own !== null && batch.created_by !== own)) throw new AppError('NOT_FOUND');
      // Names only of customers the caller may see (a retailer reading its mini-retailer's batch sees them all).
      const names = new Map((await deps.customerRows.visibleTo(caller, batch.skipped.map((s) => s.customer_id)))
        .map((r) => [r.id, `${r.first_name} ${r.last_name}`]));
      const counts = { queued: 0, sent: 0, delivered: 0, done: 0, failed: 0, expired: 0, skipped: batch.skipped.length };
      // A target whose command is not written yet counts as queued (command_id null).
      for (const t of batch.targets) counts[t.state as keyof typeof counts]++;
      const items = [
        ...batch.targets.map((t) => ({ customer_id: t.customer_id, name: t.name, command_id: t.command_id, state: t.state, reason: t.result?.error ?? null })),
        ...batch.skipped.map((s) => ({ customer_id: s.customer_id, name: names.get(s.customer_id) ?? '', command_id: null, state: 'skipped', reason: s.reason })),
      ];
      return {
        id: batch.id, action: batch.action, created_at: batch.created_at.toISOString(), total: items.length, counts,
        // A large batch lists what still needs an eye (not done), at most BATCH_ITEMS of them; the counts cover all.
        items: items.length <= BATCH_ITEMS ? items : items.filter((i) => i.state !== 'done').slice(0, BATCH_ITEMS),
      };
    },

    /** Sends the batch's failed and expired commands again, as new commands in the same batch. */
    async retryBatch(caller: RequestAuth, batchId: string): Promise<Batch> {
      const current = await this.batch(caller, batchId);
      const action = current.action as 'lock' | 'unlock';
      assertAccess(caller, accessFor(action));
      const job: BatchJob = { id: batchId, action, viewer: caller };
      // The earlier attempts stay in the log but leave the batch, in the transaction that writes the first new chunk.
      const first = await db.transaction(async (tx) => {
        if ((await devices.retargetFailed(batchId, BATCH_LEASE_SECONDS, tx)).length === 0) return null;
        const chunk = await writeBatchChunk(job, tx);
        return { ...chunk, finished: await devices.finishBatch(batchId, tx) };
      });
      if (first) {
        await channel.publishMany(first.written);
        if (!first.finished) keepWriting(job, [], true);
      }
      return this.batch(caller, batchId);
    },

    /**
     * The device sweep's part in bulk batches: finishes each batch whose writer's lease ran out (the node
     * stopped or died after answering). Returns how many it took over.
     */
    async resumeBatches(): Promise<number> {
      let taken = 0;
      while (!stopping) {
        const batch = await devices.takeAbandonedBatch(BATCH_LEASE_SECONDS);
        if (!batch) break;
        taken++;
        // The batch goes on as the user who started it would see it. One that fails keeps the lease just taken,
        // so it waits for a later sweep while the others, and the rest of the sweep, go on.
        await track(batch.id, writeRest({ id: batch.id, action: batch.action, viewer: { accountId: batch.account_id, userId: batch.created_by, userType: batch.user_type } }))
          .catch((error: unknown) => deps.log('finishing a bulk batch failed; a later sweep tries again', error));
      }
      return taken;
    },

    /**
     * Stops writing bulk batches: chunks in flight commit, no new one starts, and the batches left unfinished
     * are handed to the next device sweep of any node at once instead of when their lease runs out.
     */
    async stop(): Promise<void> {
      stopping = true;
      const held = [...writing];
      await Promise.allSettled(held.map((w) => w.work));
      await devices.releaseBatches([...new Set(held.map((w) => w.batchId))]).catch((error: unknown) => deps.log('handing unfinished bulk batches on failed; their lease runs out instead', error));
    },

    // The phone's side ---------------------------------------------------------------------------------------

    /** Device credentials (HTTP Basic, the MQTT pair) to the active device, or null. */
    async authenticate(header: string | undefined): Promise<DeviceRow | null> {
      const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
      if (!match) return null;
      const [username, password] = Buffer.from(match[1]!, 'base64').toString().split(':', 2);
      if (!username || !password || !isDeviceId(username)) return null;
      const found = await devices.withPasswordHash(username);
      return found && samePassword(password, found.mqtt_password_hash) ? found.device : null;
    },
    checkIn: (device: DeviceRow, body: CheckInBody) => channel.checkIn(device, body),
    uploadLog: (device: DeviceRow, entries: OfflineLogEntry[]) => channel.uploadLog(device, entries),
    onDeviceEvent: (topic: string, text: string) => channel.onEvent(topic, text),

    /** For the broker and device endpoints: whether these are the credentials of an active device. */
    async checkCredentials(deviceId: string, password: string): Promise<boolean> {
      if (!isDeviceId(deviceId)) return false;
      const stored = await devices.passwordHash(deviceId);
      return stored !== null && samePassword(password, stored);
    },
  };

  /**
   * Writes the next chunk of the batch's unwritten targets inside `tx`: takes up to bulkChunk of them (rows
   * another writer holds are passed over), writes a command for each that can have one and records why the
   * others were skipped. Nothing of it stays if `tx` does not commit. `claimed` 0: nothing was left to take.
   */
  async function writeBatchChunk(job: BatchJob, tx: Queryable) {
    const ids = await devices.takePending(job.id, bulkChunk, tx);
    if (ids.length === 0) return { claimed: 0, written: [] };
    // The visibility rule again inside the transaction: the customers were checked when the batch started.
    const customers = new Map((await deps.customerRows.manyVisibleTo(job.viewer, ids, tx)).map((c) => [c.id, c]));
    const devicesOf = new Map((await devices.activeDevices([...customers.keys()], tx)).map((d) => [d.customer_id, d]));
    const skipped: { customer_id: number; reason: string }[] = [];
    const ready: { customer: CustomerRow; device: DeviceRow }[] = [];
    for (const id of ids) {
      const customer = customers.get(id);
      const device = devicesOf.get(id);
      if (!customer) skipped.push({ customer_id: id, reason: 'NOT_FOUND' });
      else if (!device) skipped.push({ customer_id: id, reason: 'DEVICE_NOT_ENROLLED' });
      else if (!isDeviceActionAllowed(job.action, context(customer))) skipped.push({ customer_id: id, reason: 'ACTION_NOT_ALLOWED' });
      else ready.push({ customer, device });
    }
    const screens = job.action === 'lock' ? await lockScreens(ready.map((r) => r.customer.id), tx) : new Map<number, LockScreen>();
    const rows = await devices.createCommands(ready.map(({ customer, device }) => ({
      id: randomUUID(), device_id: device.id, customer_id: customer.id, account_id: device.account_id, type: job.action,
      payload: job.action === 'lock' ? { lock_screen: screens.get(customer.id) } : {}, created_by: job.viewer.userId, ttl_minutes: DEFAULT_TTL_MINUTES, origin: 'bulk', batch_id: job.id,
    })), tx);
    await devices.chunkWritten(job.id, skipped, BATCH_LEASE_SECONDS, tx);
    const byDevice = new Map(ready.map((r) => [r.device.id, r.device]));
    return { claimed: ids.length, written: rows.map((row) => ({ device: byDevice.get(row.device_id)!, row })) };
  }

  /**
   * Writes what is left of a batch, BATCH_CHUNKS_AT_ONCE chunks at a time, publishing each chunk once it has
   * committed, until nothing is left (the lease ends) or the node stops (the lease stays for the sweep).
   */
  async function writeRest(job: BatchJob): Promise<void> {
    const publishing: Promise<void>[] = [];
    const worker = async () => {
      while (!stopping) {
        const chunk = await db.transaction((tx) => writeBatchChunk(job, tx));
        if (chunk.claimed === 0) return;
        deps.notify?.({ type: 'batch', id: job.id }); // events: skipped customers and the commands' progress
        publishing.push(publishBulk(chunk.written));
      }
    };
    const outcomes = await Promise.allSettled(Array.from({ length: BATCH_CHUNKS_AT_ONCE }, worker));
    await Promise.all(publishing);
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    if (!stopping) await devices.finishBatch(job.id);
  }

  /** A bulk publish that fails leaves its commands queued for the sweeper. */
  function publishBulk(written: Parameters<typeof channel.publishMany>[0]): Promise<void> {
    return written.length === 0 ? Promise.resolve() : channel.publishMany(written).catch((error: unknown) => deps.log('bulk publish failed; the sweeper will retry', error));
  }

  /** After the answer: publishes the chunk written with it and, with `more`, writes the rest in the background. */
  function keepWriting(job: BatchJob, written: Parameters<typeof channel.publishMany>[0], more: boolean): void {
    void publishBulk(written);
    if (!more || stopping) return;
    void track(job.id, writeRest(job)).catch((error: unknown) => deps.log('writing a bulk batch stopped; the device sweep finishes it once its lease runs out', error));
  }

  /** Remembers a batch being written on this node until its writer returns, for stop(). */
  function track(batchId: string, work: Promise<void>): Promise<void> {
    const entry = { batchId, work };
    writing.add(entry);
    return work.finally(() => writing.delete(entry));
  }
}
export type DevicesService = ReturnType<typeof createDevicesService>;

/** A bulk batch as its writer needs it: whose view of the customers it is written with (the user who started it, or retried it). */
interface BatchJob { id: string; action: 'lock' | 'unlock'; viewer: Viewer }

interface ScheduleRow { id: number; customer_id: number; action: 'lock' | 'unlock'; run_at: Date; state: string; command_id: string | null; note: string | null; created_at: Date }
const SCHEDULE_COLUMNS = 'id, customer_id, action, run_at, state, command_id, note, created_at';
const toSchedule = (r: ScheduleRow): Schedule => ({ id: r.id, customer_id: r.customer_id, action: r.action, run_at: r.run_at.toISOString(), state: r.state, command_id: r.command_id, note: r.note, created_at: r.created_at.toISOString() });
