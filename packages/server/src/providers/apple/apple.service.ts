/**
 * The Apple provider: phones enrolled through Apple's MDM protocol and the devices Apple Business Manager
 * assigns to us. Our commands keep their life in device_commands (the command channel); for an Apple phone
 * "publishing" means a push that wakes it, after which it connects to /mdm/connect and takes the command as
 * an MDM plist, and its answer moves the command forward like an MQTT phone's ack would.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { FALLBACK_LANGUAGE, INSTALL_STATUS, isLanguage, PROVISIONING_TYPE } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { assertAccess } from '../../plugins/access.ts';
import { accessFor } from '@kisht/domain/device-access';
import { AppError } from '../../errors.ts';
import { translate } from '../../shared/messages.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { AppleDepDevice, AppleDetails, AppleQr, AppleSyncResult, AppleUpdateBody } from '@kisht/contract/apple';
import type { CommandRow, DevicesRepository } from '../../modules/devices/devices.repository.ts';
import type { CommandChannel } from '../../modules/devices/command-channel.ts';
import type { CustomersService } from '../../modules/customers/customers.service.ts';
import type { CustomersRepository } from '../../modules/customers/customers.repository.ts';
import type { PushSender } from './apns.ts';
import { VendorError, type DepClient } from './dep-client.ts';
import { buildMdmCommand, commandPlist, enrolmentProfileId, errorOf, resultOf, type MdmSettings } from './mdm-commands.ts';
import { asDict, parsePlist, PlistData, PlistError, toPlist, type PlistValue } from './plist.ts';
import type { AppleDeviceRow, AppleRepository, EnrolmentRow } from './apple.repository.ts';
import { issueEnrolmentToken, sha256 } from '../../modules/devices/enrolment.ts';
import { ownRetailerOf } from '../../modules/customers/customers.repository.ts';

export interface AppleSettings {
  publicUrl: string;
  /** The MDM push certificate's topic; without it Apple MDM is off. */
  topic: string | null;
  mdm: MdmSettings;
  tokenTtlHours: number;
}

/** An answer on the MDM endpoints: a status and, for connect, the next command's plist. */
export interface MdmReply {
  status: number;
  body: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const EMPTY: MdmReply = { status: 200, body: '' };
const REFUSED: MdmReply = { status: 401, body: '' };
/** Asked of every phone once enrolment is complete, so Activation Lock can be lifted later. */
const BYPASS_CODE_REQUEST = 'ActivationLockBypassCode';

function depView(row: AppleDeviceRow & { suggested_customer_id?: number | null }): AppleDepDevice {
  return {
    serial_number: row.serial_number, model: row.model, description: row.description, color: row.color, os: row.os, device_family: row.device_family,
    profile_status: row.profile_status, op_type: row.op_type, op_date: iso(row.op_date), device_assigned_date: iso(row.device_assigned_date),
    customer_id: row.customer_id, suggested_customer_id: row.suggested_customer_id ?? null, linked_at: iso(row.linked_at), synced_at: row.synced_at.toISOString(),
  };
}

export function createAppleService(deps: {
  db: Database;
  apple: AppleRepository;
  devices: DevicesRepository;
  customers: CustomersService;
  customerRows: CustomersRepository;
  push: PushSender | null;
  dep: DepClient | null;
  settings: AppleSettings;
  log: (message: string, error?: unknown) => void;
}) {
  const { db, apple, devices, settings } = deps;
  let channel: Pick<CommandChannel, 'report'> | null = null;

  const mdmOn = () => {
    if (!settings.topic) throw new AppError('FEATURE_OFF');
  };
  const depOf = (): DepClient => {
    if (!deps.dep) throw new AppError('FEATURE_OFF');
    return deps.dep;
  };
  const reporter = () => {
    if (!channel) throw new Error('the Apple provider is not attached to the command channel');
    return channel;
  };
  const mdmUrl = (path: 'connect' | 'checkin', deviceId: string, key: string) =>
    `${settings.publicUrl}/mdm/${path}?${new URLSearchParams({ device: deviceId, key }).toString()}`;

  /** The enrolment whose key this is, or null (wrong device, wrong key, retired phone). */
  async function authenticate(query: { device?: string; key?: string }): Promise<EnrolmentRow | null> {
    if (!query.device || !query.key || !/^[0-9a-f-]{36}$/.test(query.device)) return null;
    const enrolment = await apple.enrolment(query.device);
    if (!enrolment || enrolment.checked_out_at) return null;
    const given = Buffer.from(sha256(query.key), 'hex');
    return timingSafeEqual(given, Buffer.from(enrolment.key_hash, 'hex')) ? enrolment : null;
  }

  function parse(body: string): Record<string, PlistValue> | null {
    try {
      return asDict(parsePlist(body));
    } catch (error) {
      if (error instanceof PlistError) return null;
      throw error;
    }
  }

  async function wake(enrolment: Pick<EnrolmentRow, 'push_token' | 'push_magic'>): Promise<boolean> {
    if (!deps.push || !enrolment.push_token || !enrolment.push_magic) return false;
    await deps.push.push(enrolment.push_token, enrolment.push_magic);
    return true;
  }

  /** The next command for the phone as a plist: our device commands in seq order, then the provider's own. */
  async function nextCommand(enrolment: EnrolmentRow): Promise<MdmReply> {
    for (let guard = 0; guard < 50; guard++) {
      const row = await apple.nextCommand(enrolment.device_id);
      if (!row) break;
      const built = buildMdmCommand(row, settings.mdm, { unlockToken: enrolment.unlock_token ? Buffer.from(enrolment.unlock_token, 'base64') : null });
      if ('error' in built) {
        await reporter().report(enrolment.device_id, row.id, 'failed', { error: built.error });
        continue;
      }
      // Handing the command to the phone is its delivery; its Acknowledged or Error finishes it.
      await reporter().report(enrolment.device_id, row.id, 'delivered', undefined);
      return { status: 200, body: built.plist };
    }
    const internal = await apple.nextInternal(enrolment.device_id);
    if (internal) {
      await apple.markInternal(enrolment.device_id, internal.id, 'sent');
      return { status: 200, body: internal.body };
    }
    return EMPTY;
  }

  async function takeAnswer(enrolment: EnrolmentRow, answer: Record<string, PlistValue>, status: string): Promise<void> {
    const commandId = typeof answer.CommandUUID === 'string' ? answer.CommandUUID.toLowerCase() : null;
    if (!commandId || !/^[0-9a-f-]{36}$/.test(commandId) || status === 'NotNow') return;
    const row: CommandRow | undefined = await apple.command(enrolment.device_id, commandId);
    if (row) {
      // Forward only (the channel's rule): a repeated Acknowledged for a finished command changes nothing.
      if (status === 'Acknowledged') await reporter().report(enrolment.device_id, row.id, 'done', resultOf(row.type, answer));
      else await reporter().report(enrolment.device_id, row.id, 'failed', errorOf(answer));
      return;
    }
    const internal = await apple.markInternal(enrolment.device_id, commandId, status === 'Acknowledged' ? 'acknowledged' : 'error', status === 'Acknowledged' ? {} : errorOf(answer));
    if (internal?.request_type === BYPASS_CODE_REQUEST && status === 'Acknowledged' && typeof answer.ActivationLockBypassCode === 'string') {
      await apple.setBypassCode(enrolment.device_id, answer.ActivationLockBypassCode);
    }
  }

  async function deviceOfCustomer(customerId: number) {
    const device = await devices.activeDevice(customerId);
    return device?.channel === 'apple' ? device : undefined;
  }

  return {
    /** Called once the devices service exists: results go through its command channel. */
    attach(commandChannel: Pick<CommandChannel, 'report'>) {
      channel = commandChannel;
    },

    /**
     * The Transport for channel 'apple': the command is already queued in device_commands; a push wakes the
     * phone, which then fetches it. A command Apple cannot carry fails at once with unsupported_on_apple.
     * A push APNs refuses throws, so the command stays queued and the sweeper pushes again.
     */
    async deliver(device: { id: string }, command: CommandRow): Promise<void> {
      const enrolment = await apple.enrolment(device.id);
      if (!enrolment) throw new Error(`device ${device.id} has no Apple MDM enrolment`);
      const built = buildMdmCommand(command, settings.mdm, { unlockToken: enrolment.unlock_token ? Buffer.from(enrolment.unlock_token, 'base64') : null });
      if ('error' in built) {
        await reporter().report(device.id, command.id, 'failed', { error: built.error });
        return;
      }
      await wake(enrolment);
    },

    // The phone's side (PUT /mdm/checkin, PUT /mdm/connect, GET /mdm/enroll) -------------------------------

    /** The enrolment profile for a QR token: once per token; the device record is created with channel 'apple'. */
    async enrolmentProfile(token: string): Promise<string> {
      mdmOn();
      const deviceId = randomUUID();
      const key = randomBytes(32).toString('base64url');
      const { orgName, lng } = await db.transaction(async (tx) => {
        const taken = await devices.takeToken(sha256(token), tx);
        const customer = taken ? await deps.customerRows.findInAccount(taken.account_id, taken.customer_id, tx) : undefined;
        if (!customer || customer.provisioning_type !== PROVISIONING_TYPE.APPLE) throw new AppError('ENROLMENT_INVALID');
        await devices.create({
          id: deviceId, customer_id: customer.id, org_id: customer.org_id, account_id: customer.account_id,
          // Apple phones never use the broker: a random password nobody knows.
          mqtt_password_hash: sha256(randomBytes(32).toString('hex')), offline_secret: randomBytes(32).toString('base64url'),
          imei1: customer.imei1, imei2: customer.imei2, serial_number: customer.serial_number, sims: [], channel: 'apple',
        }, tx);
        await apple.createEnrolment(deviceId, sha256(key), tx);
        await devices.setLockStatus(customer.id, false, tx);
        // The profile's words are in the customer's language when the retailer set one.
        const language = isLanguage(customer.language) ? customer.language : FALLBACK_LANGUAGE;
        const name = (await devices.orgPolicy(customer.org_id, tx)).name;
        return { orgName: name ?? translate(language, 'deviceLock.deviceManagement', 'Device management'), lng: language };
      });
      const profileId = enrolmentProfileId(settings.mdm);
      return toPlist({
        PayloadType: 'Configuration', PayloadVersion: 1, PayloadIdentifier: profileId, PayloadUUID: randomUUID().toUpperCase(),
        PayloadDisplayName: translate(lng, 'deviceLock.profileName', '{{org}} device management', { org: orgName }), PayloadOrganization: orgName,
        PayloadRemovalDisallowed: false,
        PayloadDescription: translate(lng, 'deviceLock.profileDescription', 'Lets the financier lock this phone and locate it while the loan is open.'),
        PayloadContent: [{
          PayloadType: 'com.apple.mdm', PayloadVersion: 1, PayloadIdentifier: `${profileId}.payload`, PayloadUUID: randomUUID().toUpperCase(),
          PayloadDisplayName: translate(lng, 'deviceLock.deviceManagement', 'Device management'), ServerURL: mdmUrl('connect', deviceId, key), CheckInURL: mdmUrl('checkin', deviceId, key),
          Topic: settings.topic!, AccessRights: 8191, CheckOutWhenRemoved: true, SignMessage: true,
          ServerCapabilities: ['com.apple.mdm.bootstraptoken'],
          // The identity comes from a SCEP (or PKCS#12) payload with this UUID, added by the deployment's CA.
          IdentityCertificateUUID: '00000000-0000-0000-0000-000000000000',
        }],
      });
    },

    /** Check-in: Authenticate, TokenUpdate, CheckOut. */
    async checkIn(query: { device?: string; key?: string }, body: string): Promise<MdmReply> {
      const enrolment = await authenticate(query);
      if (!enrolment) return REFUSED;
      const message = parse(body);
      if (!message || typeof message.MessageType !== 'string') return { status: 400, body: '' };
      const udid = typeof message.UDID === 'string' ? message.UDID : null;
      // The key proves the profile; the UDID must then stay the one that first authenticated.
      if (!udid || (enrolment.udid && enrolment.udid !== udid)) return REFUSED;
      const str = (v: PlistValue | undefined) => (typeof v === 'string' ? v : null);
      switch (message.MessageType) {
        case 'Authenticate':
          await apple.authenticated(enrolment.device_id, { udid, serial_number: str(message.SerialNumber), topic: str(message.Topic), model: str(message.ProductName) ?? str(message.Model), os_version: str(message.OSVersion) });
          return EMPTY;
        case 'TokenUpdate': {
          if (!enrolment.udid || !(message.Token instanceof PlistData) || typeof message.PushMagic !== 'string') return { status: 400, body: '' };
          const pushToken = message.Token.bytes.toString('hex');
          const unlock = message.UnlockToken instanceof PlistData ? message.UnlockToken.bytes.toString('base64') : null;
          const device = await devices.device(enrolment.device_id);
          if (!device) return REFUSED;
          await db.transaction(async (tx) => {
            const first = await apple.tokenUpdate(enrolment.device_id, { push_token: pushToken, push_magic: message.PushMagic as string, unlock_token: unlock, topic: str(message.Topic) }, tx);
            if (first) {
              // Enrolment is complete: the customer is Install, and we ask for the Activation Lock bypass code once.
              await devices.markInstalled(device.customer_id, tx);
              const id = randomUUID();
              await apple.addInternal({ id, device_id: device.id, request_type: BYPASS_CODE_REQUEST, body: commandPlist(id, { RequestType: BYPASS_CODE_REQUEST }) }, tx);
            }
          });
          // Whatever was queued while the phone enrolled goes out now.
          if ((await apple.openCommands(device.id)).length || (await apple.openInternal(device.id)).length) {
            await wake({ push_token: pushToken, push_magic: message.PushMagic }).catch((error: unknown) => deps.log('APNs push after TokenUpdate failed', error));
          }
          return EMPTY;
        }
        case 'CheckOut': {
          const device = await devices.device(enrolment.device_id);
          await db.transaction(async (tx) => {
            await apple.checkedOut(enrolment.device_id, tx);
            if (device) {
              await devices.release(device.id, tx);
              await devices.setInstallStatus(device.customer_id, INSTALL_STATUS.apple_removed, tx);
              await devices.setLockStatus(device.customer_id, false, tx);
            }
          });
          return EMPTY;
        }
        default:
          // Per-user channels, bootstrap tokens and declarative management are not used.
          return { status: 410, body: '' };
      }
    },

    /** Connect: take the phone's answer to the last command, hand it the next one (or an empty body). */
    async connect(query: { device?: string; key?: string }, body: string): Promise<MdmReply> {
      const enrolment = await authenticate(query);
      if (!enrolment) return REFUSED;
      const answer = parse(body);
      if (!answer || typeof answer.Status !== 'string') return { status: 400, body: '' };
      if (typeof answer.UDID !== 'string' || answer.UDID !== enrolment.udid) return REFUSED;
      await apple.seen(enrolment.device_id, answer.Status);
      if (answer.Status !== 'Idle') await takeAnswer(enrolment, answer, answer.Status);
      // After NotNow the phone comes back with Idle when it can; offering the next command now would repeat it.
      if (answer.Status === 'NotNow') return EMPTY;
      return nextCommand(enrolment);
    },

    // The retailer's side ---------------------------------------------------------------------------------

    /** The enrolment QR for an Apple customer: the profile URL with a single-use token. */
    async qr(caller: RequestAuth, customerId: number): Promise<AppleQr> {
      const customer = await deps.customers.visible(caller, customerId);
      mdmOn();
      const { token, expires } = await issueEnrolmentToken(devices, caller, customer, PROVISIONING_TYPE.APPLE, settings.tokenTtlHours);
      const url = `${settings.publicUrl}/mdm/enroll?${new URLSearchParams({ token }).toString()}`;
      return { customer_id: customer.id, expires_at: expires.toISOString(), enrol_url: url, qr_payload: url };
    },

    /** The Apple details screen: the phone, its DEP record, its last MDM contact and what waits for it. */
    async details(caller: RequestAuth, customerId: number): Promise<AppleDetails> {
      const customer = await deps.customers.visible(caller, customerId);
      const device = await deviceOfCustomer(customer.id);
      const enrolment = device ? await apple.enrolment(device.id) : undefined;
      const dep = await apple.depDeviceOfCustomer(customer.id);
      const queued = device
        ? [
            ...(await apple.openCommands(device.id)).map((c) => ({ id: c.id, type: c.type, state: c.state, created_at: c.created_at.toISOString() })),
            ...(await apple.openInternal(device.id)).map((c) => ({ id: c.id, type: c.request_type, state: c.state, created_at: c.created_at.toISOString() })),
          ]
        : [];
      return {
        customer_id: customer.id,
        device: device && enrolment ? {
          id: device.id, udid: enrolment.udid, serial_number: enrolment.serial_number ?? device.serial_number, model: enrolment.model, os_version: enrolment.os_version,
          enrolled_at: device.created_at.toISOString(), push_ready: Boolean(enrolment.push_token), last_mdm_contact_at: iso(enrolment.last_seen_at),
          last_status: enrolment.last_status, activation_lock_code: Boolean(enrolment.bypass_code),
        } : null,
        dep: dep ? depView(dep) : null,
        profile_status: dep?.profile_status ?? null,
        queued,
      };
    },

    /** DEP sync: everything the first time, then changes since the cursor; answers this network's devices. */
    async sync(caller: RequestAuth): Promise<AppleSyncResult> {
      const client = depOf();
      let fetched = 0;
      try {
        let cursor = await apple.depCursor();
        // The first run pages through every device (fetch); later runs page through changes (sync).
        const firstRun = cursor === null;
        for (let page = 0; page < 100; page++) {
          const result = firstRun ? await client.fetchDevices(cursor, 200) : await client.syncDevices(cursor!, 200);
          await db.transaction(async (tx) => {
            for (const device of result.devices ?? []) if (device.serial_number) await apple.upsertDepDevice(device, tx);
            if (result.cursor) await apple.saveDepCursor(result.cursor, result.fetched_until ?? null, tx);
          });
          fetched += result.devices?.length ?? 0;
          cursor = result.cursor || cursor;
          if (!result.more_to_follow) break;
        }
      } catch (error) {
        if (error instanceof VendorError) {
          deps.log('DEP sync failed', error);
          throw new AppError('VENDOR_FAILED');
        }
        throw error;
      }
      return { fetched, devices: await this.depDevices(caller) };
    },

    async depDevices(caller: RequestAuth): Promise<AppleDepDevice[]> {
      return (await apple.depDevicesOf(caller.accountId, ownRetailerOf(caller))).map(depView);
    },

    /** Links a synced device to one of the network's Apple customers (or releases the link). */
    async update(caller: RequestAuth, body: AppleUpdateBody): Promise<AppleDepDevice> {
      depOf();
      const customer = body.customer_id === null ? null : await deps.customers.visible(caller, body.customer_id);
      if (customer && customer.provisioning_type !== PROVISIONING_TYPE.APPLE) throw new AppError('ACTION_NOT_ALLOWED');
      // A device linked to a customer the caller may not see (a mini-retailer and another retailer's customer) is not theirs to move.
      const before = await apple.depDevice(body.serial_number);
      if (before?.customer_id != null && before.account_id === caller.accountId) await deps.customers.visible(caller, before.customer_id);
      await db.transaction(async (tx) => {
        const row = await apple.depDevice(body.serial_number, tx, true);
        if (row && row.customer_id !== (before?.customer_id ?? null)) throw new AppError('NOT_FOUND');
        // Another network's device looks like no device at all.
        if (!row || (row.account_id !== null && row.account_id !== caller.accountId)) throw new AppError('NOT_FOUND');
        if (!customer && row.account_id === null) throw new AppError('NOT_FOUND');
        // An unclaimed device goes only to the customer whose phone it is (the serial number they bought).
        if (customer && row.account_id === null && (customer.serial_number ?? '').toUpperCase() !== row.serial_number.toUpperCase()) throw new AppError('NOT_FOUND');
        await apple.link(row.serial_number, customer ? { account_id: caller.accountId, customer_id: customer.id, linked_by: caller.userId } : null, tx);
      });
      return depView((await apple.depDevice(body.serial_number))!);
    },

    /** Lifts Activation Lock with the bypass code the phone gave at enrolment. */
    async disableActivationLock(caller: RequestAuth, customerId: number): Promise<AppleDetails> {
      // Lifting Activation Lock releases the phone as far as Apple goes: the uninstall switches.
      assertAccess(caller, accessFor('uninstall'));
      const customer = await deps.customers.visible(caller, customerId);
      const client = depOf();
      const device = await deviceOfCustomer(customer.id);
      const enrolment = device ? await apple.enrolment(device.id) : undefined;
      if (!device || !enrolment) throw new AppError('DEVICE_NOT_ENROLLED');
      if (!enrolment.bypass_code) throw new AppError('ACTIVATION_LOCK_NO_CODE');
      const org = await devices.orgPolicy(customer.org_id);
      try {
        await client.disableActivationLock({
          serial: enrolment.serial_number ?? device.serial_number ?? customer.serial_number ?? '', productType: enrolment.model ?? 'iPhone',
          imei: device.imei1, bypassCode: enrolment.bypass_code, orgName: org.name,
        });
      } catch (error) {
        if (error instanceof VendorError) {
          deps.log('Activation Lock bypass failed', error);
          throw new AppError('VENDOR_FAILED');
        }
        throw error;
      }
      return this.details(caller, customer.id);
    },

    /** The one-mode app needs an app to install: without one configured the action is off. */
    checkOneModeApp(): void {
      mdmOn();
      if (!settings.mdm.oneModeApp.itunesStoreId && !settings.mdm.oneModeApp.manifestUrl) throw new AppError('FEATURE_OFF');
    },
  };
}
export type AppleService = ReturnType<typeof createAppleService>;
