/**
 * Device enrolment (docs/device-protocol.md): the retailer's EMM QR carries a single-use token; the phone
 * presents it with its IMEIs and receives its own broker credentials and offline-code secret.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { DeviceEnrolBody, DeviceEnrolled, EmmCode } from '../../contract/devices.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { CustomersRepository } from '../customers/customers.repository.ts';
import type { DevicesRepository } from './devices.repository.ts';
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

export function createDevicesService(deps: { db: Database; devices: DevicesRepository; customers: CustomersService; customerRows: CustomersRepository; agent: AgentSettings }) {
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
