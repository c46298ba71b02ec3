/**
 * The retailer network under the spec's paths: the subtree list (retailer_list), adding and editing
 * members (add_retailer, retailer_profile), profiles, key transfers and the key history (top_up_history).
 */
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import {
  AddMemberBody, BalanceType, MemberImageQuery, MemberImageStored, MemberImageUpload, type MemberImageType, DecideBody, HistoryPage, HistoryQuery, KeyTransfer, MemberProfile, NetworkList, NetworkQuery, ProfileQuery, SchemeBody, TransferBody, UpdateMemberBody,
} from '@kisht/contract/network';
import { Type } from 'typebox';
import { ok, sendStoredImage } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import { readUpload } from '../../shared/multipart.ts';
import type { NetworkService } from './network.service.ts';
import type { MemberImagesService } from './member-images.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const uploadErrors = { ...errors, 413: ErrorReply, 415: ErrorReply };

const IMAGE_UPLOADS: Array<[string, MemberImageType, string]> = [
  ['/api/user/update_profile_image', 'photo', "Upload a retailer's photo"],
  ['/api/user/update_retailer_signature', 'signature', "Upload a retailer's signature"],
  ['/api/user/upload_retailer_qr', 'payment_qr', "Upload a retailer's UPI payment QR (kept only if it holds a UPI payment link; its address and name are read from it)"],
];
const tags = ['network'];
const security = [{ bearer: [] }];
const config = (audit?: string) => ({ callers: SIGNED_IN, scope: 'subtree' as const, ...(audit ? { audit } : {}) });

export async function networkRoutes(app: App, opts: { network: NetworkService; images: MemberImagesService }) {
  const { network, images } = opts;

  app.get('/api/country/getUsers', {
    config: config(),
    schema: { tags, security, summary: 'Retailer list: the retailers and mini-retailers below you, paged, with key balances and customer counts', querystring: NetworkQuery, response: { 200: Ok(NetworkList), ...errors } },
  }, async (request) => ok(request, await network.list(authOf(request), request.query)));

  app.post('/api/country/addUsers', {
    config: config('network.add'),
    schema: { tags, security, summary: 'Add a retailer or mini-retailer below you (switches no wider than your own)', body: AddMemberBody, response: { 200: Ok(MemberProfile), ...errors } },
  }, async (request) => ok(request, await network.add(authOf(request), request.body), 'MEMBER_ADDED'));

  app.post('/api/country/updateUsers', {
    config: config('network.update'),
    schema: { tags, security, summary: 'Edit a member below you: details, switches (off applies below it too), block or unblock', body: UpdateMemberBody, response: { 200: Ok(MemberProfile), ...errors } },
  }, async (request) => ok(request, await network.update(authOf(request), request.body), 'MEMBER_UPDATED'));

  app.get('/api/user', {
    config: config(),
    schema: { tags, security, summary: 'Your own profile in the network: details, switches, key balances', response: { 200: Ok(MemberProfile), ...errors } },
  }, async (request) => ok(request, await network.profile(authOf(request))));

  for (const url of ['/api/user/readById', '/api/user/getRetailerProfile', '/api/user/getMiniRetailerProfile']) {
    app.get(url, {
      config: config(),
      schema: { tags, security, summary: 'The profile of a member below you (or your own without an id)', querystring: ProfileQuery, response: { 200: Ok(MemberProfile), ...errors } },
    }, async (request) => ok(request, await network.profile(authOf(request), request.query.user_id)));
  }

  for (const [url, type, summary] of IMAGE_UPLOADS) {
    app.post(url, {
      config: config('network.image'),
      schema: { tags, security, summary: `${summary}: multipart with user_id (left out for your own) and file (JPEG or PNG, at most 5 MB)`, consumes: ['multipart/form-data'], body: MemberImageUpload, response: { 200: Ok(MemberImageStored), ...uploadErrors } },
      // The body schema is for the OpenAPI document: the body streams, and readUpload checks it part by part.
      validatorCompiler: () => () => true,
    }, async (request) => {
      const { id, file } = await readUpload(request, 'user_id', true);
      return ok(request, await images.store(authOf(request), id, type, file), 'DOCUMENT_SAVED');
    });
  }

  app.get('/api/user/image', {
    config: config(),
    schema: { tags, security, summary: "Your own or a member's photo, signature or payment QR", querystring: MemberImageQuery, produces: ['image/jpeg', 'image/png'], response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'JPEG or PNG bytes' }), ...errors } },
  }, async (request, reply) => {
    const image = await images.read(authOf(request), request.query.user_id ?? null, request.query.image_type);
    return sendStoredImage(reply, image, request.query.image_type);
  });

  app.post('/api/keys/transfer', {
    config: config('keys.transfer'),
    schema: { tags, security, summary: 'Send keys to a child, return keys to your parent, or request keys from it (the id makes a retry move keys once)', body: TransferBody, response: { 200: Ok(KeyTransfer), ...errors } },
  }, async (request) => ok(request, await network.transfer(authOf(request), request.body), request.body.kind === 'request' ? 'KEYS_REQUESTED' : 'KEYS_MOVED'));

  app.post('/api/keys/decide', {
    config: config('keys.decide'),
    schema: { tags, security, summary: "Approve or reject a child's key request", body: DecideBody, response: { 200: Ok(KeyTransfer), ...errors } },
  }, async (request) => ok(request, await network.decide(authOf(request), request.body.transfer_id, request.body.decision), 'REQUEST_DECIDED'));

  app.get('/api/retailer/transaction/top_up_history', {
    config: config(),
    schema: { tags, security, summary: 'Key history: received, sent, requested, returned, consumed and released keys with the balance after each', querystring: HistoryQuery, response: { 200: Ok(HistoryPage), ...errors } },
  }, async (request) => ok(request, await network.history(authOf(request), request.query)));

  app.get('/api/retailer/transaction/top_up_history/export', {
    config: config('keys.export'),
    schema: {
      tags, security, summary: 'The key history as CSV (oldest first), with the same filters',
      querystring: Type.Omit(HistoryQuery, ['page', 'limit']), response: { 200: { content: { 'text/csv': { schema: Type.String() } } }, ...errors },
    },
  }, async (request, reply) => {
    const csv = await network.historyCsv(authOf(request), request.query);
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="key-history.csv"').send(csv);
  });

  app.get('/api/points/balance_types', {
    config: config(),
    schema: { tags, security, summary: 'Your keys by product type, with the price per key you buy at (your parent\'s scheme) and sell at', response: { 200: Ok(Type.Array(BalanceType)), ...errors } },
  }, async (request) => ok(request, await network.balanceTypes(authOf(request))));

  app.post('/api/points/scheme', {
    config: config('keys.scheme'),
    schema: { tags, security, summary: 'Set your price per key to your children for one product type (recorded on each transfer)', body: SchemeBody, response: { 200: Ok(Type.Array(BalanceType)), ...errors } },
  }, async (request) => ok(request, await network.setScheme(authOf(request), request.body), 'PRICE_SAVED'));
}
