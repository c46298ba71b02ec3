/**
 * The Android Management API provider. An organisation binds its enterprise once: getOauthUrl asks Google
 * for a sign-up URL whose callback carries a single-use state of ours, so only the retailer who started the
 * sign-up can bind the enterprise it returns. AMAPI customers then get their enrolment QR from an
 * enrollment token of that enterprise, tagged with the customer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { PROVISIONING_TYPE } from '@kisht/domain/constants';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { RequestAuth } from '../../plugins/route-config.ts';
import type { EmmCode } from '@kisht/contract/devices';
import type { AmapiCallbackQuery, AmapiEnterprise, OauthUrl } from '@kisht/contract/amapi';
import type { CustomersService } from '../../modules/customers/customers.service.ts';
import { AmapiError, type AmapiClient } from './amapi-client.ts';
import type { AmapiRepository } from './amapi.repository.ts';
import { assertEnrolable } from '../../modules/devices/enrolment.ts';
import type { CustomerRow } from '../../modules/customers/customers.repository.ts';

export interface AmapiSettings {
  projectId: string | null;
  publicUrl: string;
  signupTtlMinutes: number;
  tokenTtlHours: number;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const ENTERPRISE_NAME = /^enterprises\/[A-Za-z0-9_-]{1,100}$/;
/** The policy financed phones enrol with: no factory reset, no developer settings, status reports on. */
export const FINANCED_POLICY_ID = 'financed';
const FINANCED_POLICY = {
  factoryResetDisabled: true,
  advancedSecurityOverrides: { developerSettings: 'DEVELOPER_SETTINGS_DISABLED' },
  statusReportingSettings: { hardwareStatusEnabled: true, networkInfoEnabled: true, deviceSettingsEnabled: true },
};

export function createAmapiService(deps: { db: Database; amapi: AmapiRepository; client: AmapiClient | null; customers: CustomersService; settings: AmapiSettings; log: (message: string, error?: unknown) => void }) {
  const { db, amapi, settings } = deps;

  function configured(): { client: AmapiClient; projectId: string } {
    if (!deps.client || !settings.projectId) throw new AppError('FEATURE_OFF');
    return { client: deps.client, projectId: settings.projectId };
  }

  async function vendor<T>(what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof AmapiError) {
        deps.log(`Android Management API: ${what} failed`, error);
        throw new AppError('VENDOR_FAILED');
      }
      throw error;
    }
  }

  return {
    /** getOauthUrl: Google's sign-up URL for binding this organisation's enterprise (retailers only). */
    async oauthUrl(caller: RequestAuth): Promise<OauthUrl> {
      const { client, projectId } = configured();
      if (caller.userType !== 'retailer') throw new AppError('ACCESS_DENIED');
      const state = randomBytes(32).toString('base64url');
      const callbackUrl = `${settings.publicUrl}/api/amapi/callback?${new URLSearchParams({ state }).toString()}`;
      const signup = await vendor('signupUrls.create', () => client.createSignupUrl(projectId, callbackUrl));
      await amapi.addSignup({ state_hash: sha256(state), org_id: caller.orgId, created_by: caller.userId, signup_url_name: signup.name, ttl_minutes: settings.signupTtlMinutes });
      return { url: signup.url };
    },

    /** Google's redirect after sign-up: the state names the organisation; enterprises.create completes the binding. */
    async callback(query: AmapiCallbackQuery): Promise<AmapiEnterprise> {
      const { client, projectId } = configured();
      const signup = await db.transaction((tx) => amapi.takeSignup(sha256(query.state), tx));
      if (!signup) throw new AppError('NOT_FOUND');
      const enterprise = await vendor('enterprises.create', async () => client.createEnterprise(projectId, signup.signup_url_name, query.enterpriseToken, await amapi.orgName(signup.org_id)));
      if (!ENTERPRISE_NAME.test(enterprise.name)) throw new AppError('VENDOR_FAILED');
      await vendor('policies.patch', () => client.patchPolicy(`${enterprise.name}/policies/${FINANCED_POLICY_ID}`, FINANCED_POLICY));
      await amapi.saveEnterprise({ org_id: signup.org_id, enterprise_name: enterprise.name, created_by: signup.created_by });
      return { organisation_id: signup.org_id, enterprise_name: enterprise.name };
    },

    /** The enrolment QR for an AMAPI customer: a one-time enrollment token of the organisation's enterprise. */
    async qr(caller: RequestAuth, customerId: number): Promise<EmmCode> {
      return this.qrFor(await deps.customers.visible(caller, customerId));
    },

    /** The same, for a customer the caller was already allowed to see (generate_emm_code hands AMAPI customers here). */
    async qrFor(customer: CustomerRow): Promise<EmmCode> {
      const { client } = configured();
      assertEnrolable(customer, PROVISIONING_TYPE.AMAPI);
      const enterprise = await amapi.enterprise(customer.org_id);
      if (!enterprise) throw new AppError('AMAPI_NOT_LINKED');
      const token = await vendor('enrollmentTokens.create', () => client.createEnrollmentToken(enterprise, {
        policyName: `${enterprise}/policies/${FINANCED_POLICY_ID}`, duration: `${settings.tokenTtlHours * 3600}s`, oneTimeOnly: true,
        additionalData: JSON.stringify({ customer_id: customer.id, account_id: customer.account_id }),
      }));
      const expires = token.expirationTimestamp && !Number.isNaN(Date.parse(token.expirationTimestamp)) ? new Date(token.expirationTimestamp) : new Date(Date.now() + settings.tokenTtlHours * 3600_000);
      return { customer_id: customer.id, expires_at: expires.toISOString(), qr_payload: token.qrCode };
    },
  };
}
export type AmapiService = ReturnType<typeof createAmapiService>;
