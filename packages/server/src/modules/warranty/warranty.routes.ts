/**
 * Extended warranty (decision 021): the plans with their rules, selling one for a phone, the list, one sale, its
 * revocation and its certificate; claim photos, claims and their moves; and a financed customer's plans.
 */
import { Type } from 'typebox';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { Id } from '@kisht/contract/fields';
import {
  CertificateQuery, ClaimsQuery, CustomerPlans, CustomerPlansQuery, RaiseClaimBody, RevokeWarrantyBody, SellWarrantyBody, TransitionClaimBody,
  WarrantyCertificate, WarrantyClaim, WarrantyListQuery, WarrantyPage, WarrantyPhotoQuery, WarrantyPhotoStored, WarrantyPhotoUpload, WarrantyPlan,
  WarrantySale, WarrantySold,
} from '@kisht/contract/warranty';
import type { App } from '../../shared/types.ts';
import { ok, sendStoredImage } from '../../shared/reply.ts';
import { languageOf } from '../../shared/messages.ts';
import { readUpload } from '../../shared/multipart.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { WarrantyService } from './warranty.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const uploadErrors = { ...errors, 413: ErrorReply, 415: ErrorReply };
const tags = ['plans'];
const security = [{ bearer: [] }];
const BASE = '/api/customer/extended_warranty';

export async function warrantyRoutes(app: App, opts: { warranty: WarrantyService }) {
  const { warranty } = opts;

  app.get('/api/customer/get_plans_warranty', {
    config: { callers: SIGNED_IN, scope: 'org' },
    schema: { tags, security, summary: 'Extended warranty plans with their rules: service contract or insurance, purchase window, waiting period, term, cover, deductible bands, claims and cover limit', response: { 200: Ok(Type.Array(WarrantyPlan)), ...errors } },
  }, async (request) => ok(request, await warranty.plans(authOf(request).orgId)));

  app.post(BASE, {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'warranty.sell' },
    schema: {
      tags, security, body: SellWarrantyBody, response: { 200: Ok(WarrantySold), ...errors },
      summary: 'Sell an extended warranty for one phone: one key of type 5 is used (409 NO_LICENSE_KEY when none is left); answers the sale with its certificate number and cover. 409 WARRANTY_PURCHASE_WINDOW_CLOSED past the purchase window',
    },
  }, async (request) => ok(request, await warranty.sell(authOf(request), request.body), 'WARRANTY_SOLD'));

  app.get(BASE, {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: WarrantyListQuery, response: { 200: Ok(WarrantyPage), ...errors }, summary: 'Extended warranties sold, newest first; search by name, mobile (or its last digits), IMEI or certificate number (a mini-retailer sees its own)' },
  }, async (request) => ok(request, await warranty.list(authOf(request), request.query)));

  app.get(`${BASE}/readById`, {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: Type.Object({ sale_id: Id }), response: { 200: Ok(WarrantySale), ...errors }, summary: 'One extended warranty sale' },
  }, async (request) => ok(request, await warranty.get(authOf(request), request.query.sale_id)));

  app.post(`${BASE}/revoke`, {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'warranty.revoke' },
    schema: {
      tags, security, body: RevokeWarrantyBody, response: { 200: Ok(WarrantySale), ...errors },
      summary: 'Revoke a sale: no new claim may be raised; the key comes back if no claim was ever raised. Revoking again changes nothing',
    },
  }, async (request) => ok(request, await warranty.revoke(authOf(request), request.body.sale_id, request.body.reason), 'WARRANTY_REVOKED'));

  app.get(`${BASE}/certificate`, {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: {
      tags, security, querystring: CertificateQuery, response: { 200: Ok(WarrantyCertificate), ...errors },
      summary: "The certificate's lines, cover, deductibles and notes worded in lng (else the linked customer's language, else yours), for the console to draw and share",
    },
  }, async (request) => ok(request, await warranty.certificate(authOf(request), request.query.sale_id, request.query.lng, languageOf(request.headers.cookie))));

  app.post(`${BASE}/claims/photo`, {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'warranty.photo' },
    schema: { tags, security, summary: 'Upload a photo of the damaged phone for a claim on this sale: multipart with sale_id and file (JPEG or PNG, at most 5 MB)', consumes: ['multipart/form-data'], body: WarrantyPhotoUpload, response: { 200: Ok(WarrantyPhotoStored), ...uploadErrors } },
    // The body schema is for the OpenAPI document: the body streams, and readUpload checks it part by part.
    validatorCompiler: () => () => true,
  }, async (request) => {
    const { id, file } = await readUpload(request, 'sale_id');
    return ok(request, await warranty.storePhoto(authOf(request), id!, file), 'PHOTO_SAVED');
  });

  app.get(`${BASE}/claims/photo`, {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'One claim photo', querystring: WarrantyPhotoQuery, produces: ['image/jpeg', 'image/png'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'JPEG or PNG bytes' }), ...errors } },
  }, async (request, reply) => sendStoredImage(reply, await warranty.readPhoto(authOf(request), request.query.photo_id), `claim-photo-${request.query.photo_id}`));

  app.post(`${BASE}/claims`, {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'warranty.claim' },
    schema: {
      tags, security, body: RaiseClaimBody, response: { 200: Ok(WarrantyClaim), ...errors },
      summary: 'Raise a claim with 1 to 5 photos uploaded for the sale. 409 WARRANTY_NOT_IN_COVER (waiting period, expired or revoked), 400 WARRANTY_IMEI_MISMATCH, 409 WARRANTY_NOT_COVERED, 409 WARRANTY_CLAIM_LIMIT',
    },
  }, async (request) => ok(request, await warranty.raiseClaim(authOf(request), request.body), 'CLAIM_RAISED'));

  app.get(`${BASE}/claims`, {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: ClaimsQuery, response: { 200: Ok(Type.Array(WarrantyClaim)), ...errors }, summary: "A sale's claims, oldest first, each with its moves (who and when)" },
  }, async (request) => ok(request, await warranty.claims(authOf(request), request.query.sale_id)));

  app.post(`${BASE}/claims/transition`, {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'warranty.claim_transition' },
    schema: {
      tags, security, body: TransitionClaimBody, response: { 200: Ok(WarrantyClaim), ...errors },
      summary: 'Move a claim: intimated -> documents or rejected; documents -> approved or rejected; approved -> repaired, replaced or settled. A rejection needs a reason, an approval the assessed cost (the payable amount is worked out then). 409 WARRANTY_CLAIM_STATE otherwise',
    },
  }, async (request) => ok(request, await warranty.transition(authOf(request), request.body), 'CLAIM_UPDATED'));

  app.get('/api/customer/plans', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, querystring: CustomerPlansQuery, response: { 200: Ok(CustomerPlans), ...errors }, summary: "A financed customer's add-on plans for the customer details screen: extended warranties (linked or sold to the same mobile) with their claims, and anti-hacking plans on the same mobile" },
  }, async (request) => ok(request, await warranty.customerPlans(authOf(request), request.query.customer_id)));
}
