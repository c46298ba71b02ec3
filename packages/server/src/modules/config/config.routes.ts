/** Organisation white-label config, app configs (feature switches), lock access and user access, pricing. */
import { brandingFor } from '@kisht/domain/white-label';
import { CACHE_SECONDS, LANGUAGES } from '@kisht/domain/constants';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { AppConfigs, LockAccessConfig, OrgAppConfig, PriceList, UserAccessConfig } from '@kisht/contract/config';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
import type { OrgRepository, OrgRow } from './org.repository.ts';

const errors = { 401: ErrorReply, 404: ErrorReply, 511: ErrorReply };

export function orgAppConfig(org: OrgRow) {
  const branding = brandingFor(org.name);
  return {
    org_id: org.id,
    name: org.name,
    short_name: org.short_name,
    company_name: org.company_name,
    parent_company_name: org.parent_company_name,
    ai_assistant_name: org.ai_assistant_name,
    main_layout: branding.mainLayout,
    antihacking_layout: branding.antihackingLayout,
    theme: branding.theme,
    support: { phone: org.support_phone, email: org.support_email, whatsapp: org.support_whatsapp, hours: org.support_hours },
  };
}

export async function configRoutes(app: App, opts: { orgs: OrgRepository; appOrgId: number }) {
  const { orgs } = opts;

  async function orgFor(id: number) {
    const org = await orgs.findById(id);
    if (!org) throw new AppError('NOT_FOUND');
    return org;
  }

  app.get('/api/organizations/get_org_app_config', {
    config: { public: true, callers: ['public'], scope: 'org' },
    schema: {
      tags: ['config'],
      summary: "White-label configuration: the signed-in caller's organisation, else the one this app is built for",
      response: { 200: Ok(OrgAppConfig), ...errors },
    },
  }, async (request) => ok(request, orgAppConfig(await orgFor(request.auth?.orgId ?? opts.appOrgId))));

  app.get('/api/config/get_app_configs', {
    config: { callers: SIGNED_IN, scope: 'org' },
    schema: { tags: ['config'], summary: "Feature switches and app settings of the caller's organisation", security: [{ bearer: [] }], response: { 200: Ok(AppConfigs), ...errors } },
  }, async (request) => {
    const org = await orgFor(authOf(request).orgId);
    return ok(request, { features: org.features, languages: [...LANGUAGES], cache_seconds: { ...CACHE_SECONDS }, offline_lock_days: org.offline_lock_days });
  });

  app.get('/api/config/access-config', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags: ['config'], summary: "The caller's lock access (lock, unlock, read, uninstall)", security: [{ bearer: [] }], response: { 200: Ok(LockAccessConfig), ...errors } },
  }, async (request) => ok(request, authOf(request).lockAccess));

  app.get('/api/user/user_access', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags: ['config'], summary: "The caller's user access switches", security: [{ bearer: [] }], response: { 200: Ok(UserAccessConfig), ...errors } },
  }, async (request) => ok(request, authOf(request).userAccess));

  app.get('/api/pricing', {
    config: { public: true, callers: ['public'], scope: 'org' },
    schema: { tags: ['config'], summary: "The app organisation's public price list (null price: ask the admin)", response: { 200: Ok(PriceList), ...errors } },
  }, async (request) => ok(request, await orgs.priceList(opts.appOrgId)));
}
