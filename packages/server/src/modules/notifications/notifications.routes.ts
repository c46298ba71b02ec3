/** Notifications for retailers (issue 14): the caller's own, paged; the bell's count; marking read. */
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { NotificationCount, NotificationListQuery, NotificationPage, NotificationReadBody, PushTokenBody, PushTokenRemoveBody } from '@kisht/contract/notifications';
import { Type } from 'typebox';
import { FALLBACK_LANGUAGE } from '@kisht/domain/constants';
import type { NotificationPush } from './notification-push.ts';
import type { App } from '../../shared/types.ts';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { NotificationsService } from './notifications.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 511: ErrorReply };
const tags = ['notifications'];
const security = [{ bearer: [] }];

export async function notificationsRoutes(app: App, opts: { notifications: NotificationsService; push: NotificationPush }) {
  const { notifications } = opts;

  app.get('/api/notifications', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, querystring: NotificationListQuery, response: { 200: Ok(NotificationPage), ...errors }, summary: 'Your notifications, newest first, with the unread count (only the unread ones with unread=true)' },
  }, async (request) => ok(request, await notifications.page(authOf(request), request.query)));

  app.get('/api/notifications/count', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, response: { 200: Ok(NotificationCount), ...errors }, summary: "The bell's count: your unread notifications" },
  }, async (request) => ok(request, await notifications.count(authOf(request))));

  app.post('/api/notifications/read', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, body: NotificationReadBody, response: { 200: Ok(NotificationCount), ...errors }, summary: 'Mark your notifications read: these ids, or all of them without ids (ids of others change nothing)' },
  }, async (request) => ok(request, await notifications.markRead(authOf(request), request.body)));

  app.post('/api/notifications/push_token', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, body: PushTokenBody, response: { 200: Ok(Type.Null()), ...errors }, summary: "Register the native shell's push token for your notifications, worded in `language`, for as long as this session lasts (docs/native-bridge.md)" },
  }, async (request) => {
    const auth = authOf(request);
    await opts.push.register(auth.userId, auth.sessionId, request.body.token, request.body.language ?? FALLBACK_LANGUAGE);
    return ok(request, null);
  });

  app.post('/api/notifications/push_token/remove', {
    config: { callers: SIGNED_IN, scope: 'own' },
    schema: { tags, security, body: PushTokenRemoveBody, response: { 200: Ok(Type.Null()), ...errors }, summary: 'Stop pushing your notifications to this token (signing out on that phone)' },
  }, async (request) => {
    await opts.push.remove(authOf(request).userId, request.body.token);
    return ok(request, null);
  });
}
