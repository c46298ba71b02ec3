/** Builds the Apple provider from configuration: APNs and DEP clients only where their settings are given. */
import { readFile } from 'node:fs/promises';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { createDevicesRepository } from '../../modules/devices/devices.repository.ts';
import type { CustomersService } from '../../modules/customers/customers.service.ts';
import type { CustomersRepository } from '../../modules/customers/customers.repository.ts';
import { Http2ApnsClient } from './apns.ts';
import { HttpDepClient } from './dep-client.ts';
import { createAppleRepository } from './apple.repository.ts';
import { createAppleService } from './apple.service.ts';

export async function createAppleProvider(config: Config, deps: { db: Database; customers: CustomersService; customerRows: CustomersRepository; publicUrl: string; log: (message: string, error?: unknown) => void }) {
  const push = config.APPLE_MDM_TOPIC
    ? new Http2ApnsClient({
        url: config.APPLE_APNS_URL, topic: config.APPLE_MDM_TOPIC,
        ...(config.APPLE_APNS_CERT_FILE && config.APPLE_APNS_KEY_FILE
          ? { cert: await readFile(config.APPLE_APNS_CERT_FILE, 'utf8'), key: await readFile(config.APPLE_APNS_KEY_FILE, 'utf8') }
          : {}),
      })
    : null;
  const dep = config.APPLE_DEP_CONSUMER_KEY && config.APPLE_DEP_CONSUMER_SECRET && config.APPLE_DEP_ACCESS_TOKEN && config.APPLE_DEP_ACCESS_SECRET
    ? new HttpDepClient({
        depUrl: config.APPLE_DEP_URL.replace(/\/$/, ''), escrowUrl: config.APPLE_ESCROW_URL.replace(/\/$/, ''),
        token: { consumerKey: config.APPLE_DEP_CONSUMER_KEY, consumerSecret: config.APPLE_DEP_CONSUMER_SECRET, accessToken: config.APPLE_DEP_ACCESS_TOKEN, accessSecret: config.APPLE_DEP_ACCESS_SECRET },
      })
    : null;
  const service = createAppleService({
    db: deps.db, apple: createAppleRepository(deps.db), devices: createDevicesRepository(deps.db), customers: deps.customers, customerRows: deps.customerRows,
    push, dep, log: deps.log,
    settings: {
      publicUrl: deps.publicUrl.replace(/\/$/, ''), topic: config.APPLE_MDM_TOPIC ?? null, tokenTtlHours: 24,
      mdm: { profilePrefix: config.APPLE_PROFILE_PREFIX, oneModeApp: { itunesStoreId: config.APPLE_ONEMODE_ITUNES_ID ?? null, manifestUrl: config.APPLE_ONEMODE_MANIFEST_URL ?? null } },
    },
  });
  return { ...service, close: () => push?.close() };
}
