/**
 * Device enrolment (docs/device-protocol.md): the retailer's EMM QR carries a single-use token; the phone
 * presents it with its IMEIs and receives its own broker credentials and offline-code secret.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { isActionAllowed, type ProvisioningType } from '@kisht/domain/device-actions';
import { assertAccess } from '../../plugins/access.ts';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { DeviceCommand, DeviceEnrolBody, DeviceEnrolled, EmmCode } from '../../contract/devices.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { CustomersRepository } from '../customers/customers.repository.ts';
import type { CommandRow, DevicesRepository } from './devices.repository.ts';
import { commandTopic, deviceUsername, eventTopic } from './topics.ts';

export interface AgentSettings {
  publicUrl: string;
  component: string;
  apkUrl: string;
  apkChecksum: string;
  tokenTtlHours: number;
  checkInSeconds: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function toCommand(row: CommandRow): DeviceCommand {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return { id: row.id, seq: row.seq, type: row.type, state: row.state, result: row.result, created_at: row.created_at.toISOString(), sent_at: iso(row.sent_at), delivered_at: iso(row.delivered_at), finished_at: iso(row.finished_at) };
}

export function createDevicesService(deps: {
  db: Database;
  devices: DevicesRepository;
  customers: CustomersService;
  customerRows: CustomersRepository;
  agent: AgentSettings;
  /** Publishes to the broker with QoS 1 and resolves when the broker has it. */
  publish?: (topic: string, message: string) => Promise<void>;
}) {
  const { db, devices, agent } = deps;
  return {
    /** generate_emm_code: a fresh single-use token inside the Android Enterprise provisioning payload. */
    async emmCode(caller: RequestAuth, customerId: number): Promise<EmmCode> {
      const customer = await deps.customers.visible(caller, customerId);
      // Apple devices enrol through Apple's MDM and LINKFL/AMAPI through their providers (device work to come).
      if (customer.provisioning_type !== PROVISIONING_TYPE.DPC) throw new AppError('FEATURE_OFF');
      if (![0, 1, 2, 6].includes(customer.install_status)) throw new AppError('NOTHING_DUE');
      const token = randomBytes(32).toString('base64url');
      const expires = await devices.createToken({ token_hash: sha256(token), customer_id: customer.id, account_id: caller.accountId, created_by: caller.userId, ttl_hours: agent.tokenTtlHours });
      const payload = {
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_COMPONENT_NAME': agent.component,
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_DOWNLOAD_LOCATION': agent.apkUrl,
        'android.app.extra.PROVISIONING_DEVICE_ADMIN_PACKAGE_CHECKSUM': agent.apkChecksum,
        'android.app.extra.PROVISIONING_LEAVE_ALL_SYSTEM_APPS_ENABLED': true,
        'android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE': { 'kisht.server': agent.publicUrl, 'kisht.token': token, 'kisht.v': '1' },
      };
      return { customer_id: customer.id, expires_at: expires.toISOString(), qr_payload: JSON.stringify(payload) };
    },

    /** The phone's side: a good token and a matching IMEI give the phone its own credentials, once. */
    async enrol(body: DeviceEnrolBody): Promise<DeviceEnrolled> {
      const deviceId = randomUUID();
      const password = randomBytes(32).toString('base64url');
      const offlineSecret = randomBytes(32).toString('base64url');
      await db.transaction(async (tx) => {
        const token = await devices.takeToken(sha256(body.token), tx);
        const customer = token ? await deps.customerRows.findInAccount(token.account_id, token.customer_id, tx) : undefined;
        const imeis = [body.imei1, body.imei2].filter(Boolean);
        // A wrong token and a wrong phone look the same from outside.
        if (!customer || !imeis.some((i) => i === customer.imei1 || i === customer.imei2)) throw new AppError('ENROLMENT_INVALID');
        await devices.create({
          id: deviceId, customer_id: customer.id, org_id: customer.org_id, account_id: customer.account_id, mqtt_password_hash: sha256(password),
          offline_secret: offlineSecret, imei1: body.imei1, imei2: body.imei2 ?? null, serial_number: body.serial_number ?? null, sims: body.sims ?? [],
        }, tx);
        await devices.markInstalled(customer.id, tx);
      });
      return {
        device_id: deviceId,
        mqtt: { username: deviceUsername(deviceId), password, command_topic: commandTopic(deviceId), event_topic: eventTopic(deviceId) },
        offline_secret: offlineSecret,
        check_in_seconds: agent.checkInSeconds,
      };
    },

    /**
     * lock / unlock: allowed by the section 6 rule and the caller's switches, written first, published after
     * commit (QoS 1) with an id, a per-device sequence number and an HMAC under the device's secret.
     * A double tap returns the command already under way. The customer's lock status changes when the
     * phone reports the command done, never before.
     */
    async command(caller: RequestAuth, customerId: number, type: 'lock' | 'unlock'): Promise<DeviceCommand> {
      assertAccess(caller, type === 'lock' ? { userAccess: ['lock_unlock'], lockAccess: ['lock'] } : { userAccess: ['lock_unlock'], lockAccess: ['unlock'] });
      const customer = await deps.customers.visible(caller, customerId);
      const device = await devices.activeDevice(customer.id);
      if (!device) throw new AppError('NOT_FOUND');
      const context = { provisioningType: customer.provisioning_type as ProvisioningType, locked: customer.lock_status === 1, allowList: customer.allowed_actions };
      if (!isActionAllowed(type, context)) throw new AppError('ACCESS_DENIED');
      const { row, fresh } = await db.transaction(async (tx) => {
        const pending = await devices.pendingCommand(device.id, type, tx);
        if (pending) return { row: pending, fresh: false };
        return { row: await devices.createCommand({ id: randomUUID(), device_id: device.id, customer_id: customer.id, account_id: caller.accountId, type, payload: {}, created_by: caller.userId, ttl_minutes: 24 * 60 }, tx), fresh: true };
      });
      if (fresh && deps.publish) {
        const message = { v: 1, id: row.id, seq: row.seq, type: row.type, payload: row.payload, issuedAt: row.created_at.toISOString(), expiresAt: row.expires_at.toISOString() };
        const sig = createHmac('sha256', Buffer.from(device.offline_secret, 'base64url')).update(JSON.stringify(message)).digest('base64url');
        await deps.publish(commandTopic(device.id), JSON.stringify({ ...message, sig }));
        return toCommand((await devices.advance(device.id, row.id, 'sent', undefined)) ?? row);
      }
      return toCommand(row);
    },

    async commands(caller: RequestAuth, customerId: number): Promise<DeviceCommand[]> {
      const customer = await deps.customers.visible(caller, customerId);
      return (await devices.commands(customer.id)).map(toCommand);
    },

    /** A phone's report on its own event topic (the broker guarantees the topic is its own). */
    async onDeviceEvent(topic: string, text: string): Promise<void> {
      const deviceId = /^kisht\/v1\/d\/([0-9a-f-]{36})\/evt$/.exec(topic)?.[1];
      if (!deviceId) return;
      let event: { v?: unknown; id?: unknown; state?: unknown; result?: unknown };
      try {
        event = JSON.parse(text) as typeof event;
      } catch {
        return;
      }
      if (event.v !== 1 || typeof event.id !== 'string' || !['delivered', 'done', 'failed'].includes(String(event.state))) return;
      const updated = await devices.advance(deviceId, event.id, event.state as 'delivered' | 'done' | 'failed', event.result);
      if (updated?.state === 'done' && (updated.type === 'lock' || updated.type === 'unlock')) {
        await devices.setLockStatus(updated.customer_id, updated.type === 'lock');
      }
    },

    /** For the broker: whether these are the credentials of an active device. */
    async checkCredentials(deviceId: string, password: string): Promise<boolean> {
      const stored = await devices.passwordHash(deviceId);
      if (!stored) return false;
      const given = Buffer.from(sha256(password), 'hex');
      return timingSafeEqual(given, Buffer.from(stored, 'hex'));
    },
  };
}
export type DevicesService = ReturnType<typeof createDevicesService>;
