/** /api/ads/*: offers campaigns (send_advertisement); /api/announcements/*: the operator's announcements; the phone's offer picture. */
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { AdCreative, AdSettings, Announcement, AnnouncementIdBody, Campaign, CampaignBody, CampaignIdBody, CampaignIdQuery, CampaignList, CampaignListQuery, CampaignTargets, CampaignTargetsQuery } from '@kisht/contract/ads';
import { ErrorReply, Nullable, Ok } from '@kisht/contract/envelope';
import type { App } from '../../shared/types.ts';
import { ok, sendStoredImage } from '../../shared/reply.ts';
import { readUpload } from '../../shared/multipart.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { AppError } from '../../errors.ts';
import type { DeviceRow } from '../devices/devices.repository.ts';
import type { AdsService } from './ads.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const uploadErrors = { ...errors, 413: ErrorReply, 415: ErrorReply };
const tags = ['offers'];
const security = [{ bearer: [] }];
const Image = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'JPEG or PNG bytes' });

export async function adsRoutes(app: App, opts: { ads: AdsService; authenticateDevice: (header: string | undefined) => Promise<DeviceRow | null> }) {
  const { ads } = opts;

  app.post('/api/ads/creative', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'ads.creative' },
    schema: {
      tags, security, consumes: ['multipart/form-data'], response: { 200: Ok(AdCreative), ...uploadErrors },
      summary: "Upload an offer's picture: multipart with file (JPEG or PNG, at most 5 MB); it is shrunk to at most 1200 x 1200 and encoded again as it came, JPEG at quality 0.8",
    },
  }, async (request) => {
    const { file } = await readUpload(request, 'campaign', true);
    return ok(request, await ads.storeCreative(authOf(request), file), 'PHOTO_SAVED');
  });

  app.get('/api/ads/creative_image', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "An offer's picture", querystring: Type.Object({ creative_id: Type.String({ format: 'uuid' }) }), produces: ['image/jpeg', 'image/png'], response: { 200: Image, ...errors } },
  }, async (request, reply) => sendStoredImage(reply, await ads.readCreative(authOf(request), request.query.creative_id), `offer-${request.query.creative_id}`));

  app.post('/api/ads/campaigns', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'ads.campaign' },
    schema: {
      tags, security, body: CampaignBody, response: { 200: Ok(Campaign), ...errors },
      summary: 'Send an offer to your customers now or at send_at: never to a locked phone or a customer who opted out, only from 09:00 to 21:00 India time, within the per-phone caps',
    },
  }, async (request) => ok(request, await ads.create(authOf(request), request.body), 'CAMPAIGN_CREATED'));

  app.get('/api/ads/campaigns', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'Your campaigns, newest first, with their results', querystring: CampaignListQuery, response: { 200: Ok(CampaignList), ...errors } },
  }, async (request) => ok(request, await ads.list(authOf(request), request.query.page, request.query.limit)));

  app.get('/api/ads/campaign', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A campaign's results: phones targeted, skipped by reason, sent, delivered, opened", querystring: CampaignIdQuery, response: { 200: Ok(Campaign), ...errors } },
  }, async (request) => ok(request, await ads.campaign(authOf(request), request.query.campaign_id)));

  app.get('/api/ads/campaign_targets', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A campaign's phones, each with what became of its offer", querystring: CampaignTargetsQuery, response: { 200: Ok(CampaignTargets), ...errors } },
  }, async (request) => ok(request, await ads.targets(authOf(request), request.query)));

  app.post('/api/ads/campaign_cancel', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'ads.cancel' },
    schema: { tags, security, summary: 'Stop a campaign that has not finished; phones not reached yet are not sent to', body: CampaignIdBody, response: { 200: Ok(Campaign), ...errors } },
  }, async (request) => ok(request, await ads.cancel(authOf(request), request.body.campaign_id), 'CAMPAIGN_CANCELLED'));

  app.get('/api/ads/settings', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "The organisation's per-phone caps and the sending hours", response: { 200: Ok(AdSettings), ...errors } },
  }, async (request) => ok(request, await ads.settings(authOf(request))));

  app.get('/api/announcements/current', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, summary: "The operator's newest announcement you have not dismissed, or null", response: { 200: Ok(Nullable(Announcement)), ...errors } },
  }, async (request) => ok(request, await ads.announcement(authOf(request))));

  app.post('/api/announcements/dismiss', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, summary: 'Do not show this announcement again', body: AnnouncementIdBody, response: { 200: Ok(Type.Null()), ...errors } },
  }, async (request) => {
    await ads.dismiss(authOf(request), request.body.announcement_id);
    return ok(request, null);
  });

  // The phone's side: the picture of an offer it was sent, with its own credentials.
  const deviceOf = async (request: FastifyRequest): Promise<DeviceRow> => {
    const device = await opts.authenticateDevice(request.headers.authorization);
    if (!device) throw new AppError('DEVICE_CREDENTIALS_INVALID');
    return device;
  };
  app.get('/api/device/offer_image', {
    config: { public: true, skipEmm: true, callers: ['device'], scope: 'own' },
    schema: { tags: ['device side'], summary: 'The picture of an offer sent to this phone (its own credentials, HTTP Basic)', querystring: Type.Object({ campaign_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), produces: ['image/jpeg', 'image/png'], response: { 200: Image, ...errors } },
  }, async (request, reply) => sendStoredImage(reply, await ads.offerImage(await deviceOf(request), request.query.campaign_id), `offer-${request.query.campaign_id}`));
}
