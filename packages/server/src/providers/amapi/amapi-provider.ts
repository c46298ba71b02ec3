/** Builds the Android Management API provider from configuration (off without AMAPI_PROJECT_ID). */
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { CustomersService } from '../../modules/customers/customers.service.ts';
import { HttpAmapiClient } from './amapi-client.ts';
import { createAmapiRepository } from './amapi.repository.ts';
import { createAmapiService } from './amapi.service.ts';
import { ServiceAccountTokenProvider, StaticTokenProvider } from './token-provider.ts';

export function createAmapiProvider(config: Config, deps: { db: Database; customers: CustomersService; publicUrl: string; log: (message: string, error?: unknown) => void }) {
  const tokens = config.AMAPI_SERVICE_ACCOUNT_FILE
    ? new ServiceAccountTokenProvider({ keyFile: config.AMAPI_SERVICE_ACCOUNT_FILE })
    : config.AMAPI_TOKEN ? new StaticTokenProvider(config.AMAPI_TOKEN) : null;
  const client = config.AMAPI_PROJECT_ID && tokens ? new HttpAmapiClient({ baseUrl: config.AMAPI_URL.replace(/\/$/, ''), tokens }) : null;
  return createAmapiService({
    db: deps.db, amapi: createAmapiRepository(deps.db), client, customers: deps.customers, log: deps.log,
    settings: { projectId: config.AMAPI_PROJECT_ID ?? null, publicUrl: deps.publicUrl.replace(/\/$/, ''), signupTtlMinutes: 60, tokenTtlHours: 24 },
  });
}
