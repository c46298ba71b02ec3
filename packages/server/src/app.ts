/**
 * Builds the whole server as one Fastify instance: infrastructure first (database, broker, providers),
 * then the global hooks (errors, X-EMM check, sessions), then the feature routes, then the console.
 * server.ts is the only place that listens; tests call buildApp and use inject().
 */
import { todayInIndia } from '@kisht/domain/format';
import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import multipart from '@fastify/multipart';
import { createWebSocketStream } from 'ws';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CACHE_SECONDS } from '@kisht/domain/constants';
import { EMM_AUTH_HEADER } from '@kisht/domain/emm-auth';
import { defaultClientId, type Config } from './config.ts';
import { openDatabase, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { isDatabaseUnavailable } from './db/errors.ts';
import { startBroker, type Broker } from './broker/broker.ts';
import type { SmsProvider } from './providers/sms/sms-provider.ts';
import { DevOutboxSmsProvider } from './providers/sms/dev-outbox.ts';
import { WebhookSmsProvider } from './providers/sms/webhook.ts';
import { registerErrorHandling } from './plugins/error-handler.ts';
import { signInBrandingOf } from './plugins/console-pages.ts';
import { lazySchemaCompilers } from './plugins/lazy-schemas.ts';
import security from './plugins/security.ts';
import inputGuard from './plugins/input-guard.ts';
import auditHook from './plugins/audit.ts';
import { createAuditRepository } from './modules/audit/audit.repository.ts';
import { createAuditService } from './modules/audit/audit.service.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { createNetworkRepository } from './modules/network/network.repository.ts';
import { createNetworkService } from './modules/network/network.service.ts';
import { createMemberImagesService } from './modules/network/member-images.service.ts';
import { networkRoutes } from './modules/network/network.routes.ts';
import { createUsersRepository, createSignupRepository } from './modules/users/users.repository.ts';
import { createOtpRepository } from './modules/auth/otp.repository.ts';
import { createSessionsRepository } from './modules/sessions/sessions.repository.ts';
import { createSessionsService } from './modules/sessions/sessions.service.ts';
import { createOrgRepository } from './modules/config/org.repository.ts';
import { createEmmSeenRepository } from './modules/security/emm-seen.repository.ts';
import { localEmmSeen } from './modules/security/emm-seen.local.ts';
import { createSmsOutboxRepository } from './modules/dev/sms-outbox.repository.ts';
import { createSmsQueueRepository } from './modules/sms-queue/sms-queue.repository.ts';
import { createSmsQueue } from './modules/sms-queue/sms-queue.worker.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createSignupsService } from './modules/users/signups.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { sessionsRoutes } from './modules/sessions/sessions.routes.ts';
import { configRoutes, orgAppConfig } from './modules/config/config.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { devRoutes } from './modules/dev/dev.routes.ts';
import { localesRoutes } from './modules/locales/locales.routes.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { createCatalogueRepository } from './modules/catalogue/catalogue.repository.ts';
import { catalogueRoutes } from './modules/catalogue/catalogue.routes.ts';
import { createCustomersRepository, ownRetailerOf } from './modules/customers/customers.repository.ts';
import { createCustomersService } from './modules/customers/customers.service.ts';
import { customersRoutes } from './modules/customers/customers.routes.ts';
import { antihackingRoutes } from './modules/antihacking/antihacking.routes.ts';
import { createAntihackingRepository, toSale as toAntihackingSale } from './modules/antihacking/antihacking.repository.ts';
import { createAntihackingService } from './modules/antihacking/antihacking.service.ts';
import { createWarrantyRepository } from './modules/warranty/warranty.repository.ts';
import { createWarrantyService } from './modules/warranty/warranty.service.ts';
import { warrantyRoutes } from './modules/warranty/warranty.routes.ts';
import { createAntitheftService } from './modules/antitheft/antitheft.service.ts';
import { antitheftRoutes } from './modules/antitheft/antitheft.routes.ts';
import { createFamilyCareService } from './modules/familycare/familycare.service.ts';
import { createFamilyCareRepository } from './modules/familycare/familycare.repository.ts';
import { familyCareRoutes } from './modules/familycare/familycare.routes.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createNotificationsService } from './modules/notifications/notifications.service.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { createLicensesRepository } from './modules/licenses/licenses.repository.ts';
import { createEmiRepository } from './modules/emi/emi.repository.ts';
import { createEmiService } from './modules/emi/emi.service.ts';
import { emiRoutes } from './modules/emi/emi.routes.ts';
import { createPaymentsRepository } from './modules/payments/payments.repository.ts';
import { createPaymentsService } from './modules/payments/payments.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPaymentGateway } from './providers/payments/create-gateway.ts';
import { createPaymentClaimsRepository } from './modules/payment-claims/payment-claims.repository.ts';
import { createPaymentClaimsService } from './modules/payment-claims/payment-claims.service.ts';
import { paymentClaimsRoutes } from './modules/payment-claims/payment-claims.routes.ts';
import { createFileStore } from './modules/documents/file-store.ts';
import { createDashboardRepository } from './modules/dashboard/dashboard.repository.ts';
import { createDevicesRepository } from './modules/devices/devices.repository.ts';
import { createAdsRepository } from './modules/ads/ads.repository.ts';
import { createNotificationPush } from './modules/notifications/notification-push.ts';
import { createAdsService } from './modules/ads/ads.service.ts';
import { adsRoutes } from './modules/ads/ads.routes.ts';
import { createPushWake } from './modules/ads/push-wake.ts';
import { pushProviderFromEnv, type PushProvider } from './providers/push/push.ts';
import { createDevicesService } from './modules/devices/devices.service.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { commandTopic } from '@kisht/protocol/topics';
import { createDevicePolicies } from './modules/devices/device-policies.ts';
import { startRepeating, withTimeout } from './shared/repeat.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { createDuesRepository } from './modules/dues/dues.repository.ts';
import { createDuesService, startDuesScheduler } from './modules/dues/dues.service.ts';
import { createDocumentsService } from './modules/documents/documents.service.ts';
import { createEventsRepository } from './modules/events/events.repository.ts';
import { createLocalBus, createPostgresBus } from './modules/events/events.bus.ts';
import { createEventHub } from './modules/events/events.hub.ts';
import eventsRoutes from './modules/events/events.routes.ts';
import { documentsRoutes } from './modules/documents/documents.routes.ts';
import { deriveKey, operatorKey } from './secret.ts';
import { createAppleProvider } from './providers/apple/apple-provider.ts';
import { appleRoutes } from './providers/apple/apple.routes.ts';
import { createAmapiProvider } from './providers/amapi/amapi-provider.ts';
import { amapiRoutes } from './providers/amapi/amapi.routes.ts';

export const VERSION = '0.1.0';

export interface AppDeps {
  /** An already open database (tests share one per file); otherwise opened from config. */
  db?: Database;
  broker?: Broker;
  sms?: SmsProvider;
  /** The secret keys derive from; server.ts supplies a persisted one in development. */
  secret: string;
  /** The offers sender's clock (tests move it across the sending hours); the real time otherwise. */
  adsClock?: () => Date;
  /** Push provider for waking phones (tests pass a fake FCM adapter); otherwise from the environment. */
  push?: PushProvider;
}

/** How often a node looks for phones on a plan alone whose plan has ended (decision 023). */
const PLAN_RELEASE_SWEEP_MS = 5 * 60_000;

export async function buildApp(config: Config, deps: AppDeps) {
  const db = deps.db ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.paths.pglite }));
  await migrate(db);
  const broker =
    deps.broker ??
    (await startBroker({
      url: config.MQTT_URL, username: config.MQTT_USERNAME, password: config.MQTT_PASSWORD,
      port: config.MQTT_PORT, host: config.MQTT_HOST, secret: deps.secret, deviceAuth: config.MQTT_DEVICE_AUTH, sharedGroup: config.MQTT_SHARED_GROUP,
      reportConnections: config.MQTT_REPORT_CONNECTIONS,
      // A report that failed because the database is away is tried again until it is taken.
      retryable: isDatabaseUnavailable, log: (message, error) => app.log.warn({ err: error }, message),
      // A stable id lets an external broker keep the server's session across restarts (see defaultClientId).
      clientId: config.MQTT_CLIENT_ID ?? defaultClientId(config),
    }));
  const outbox = config.SMS_PROVIDER === 'dev-outbox' ? new DevOutboxSmsProvider(createSmsOutboxRepository(db)) : null;
  const sms: SmsProvider = deps.sms ?? outbox ?? new WebhookSmsProvider(config.SMS_WEBHOOK_URL!, config.SMS_WEBHOOK_TOKEN);
  // Requests only queue their messages; this worker sends them, and SMS_QUEUE_SECONDS retries what failed.
  const smsQueue = createSmsQueue({ repository: createSmsQueueRepository(db), provider: sms, log: (message, error) => app.log.warn({ err: error }, message) });

  const schemas = lazySchemaCompilers();
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL, redact: ['req.headers.authorization', `req.headers["${EMM_AUTH_HEADER}"]`] },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } },
    schemaController: { compilersFactory: schemas.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const users = createUsersRepository(db);
  const signups = createSignupRepository(db);
  const otps = createOtpRepository(db);
  const sessions = createSessionsRepository(db, { cacheMs: config.limits.sessionCacheMs });
  const orgs = createOrgRepository(db);
  const catalogue = createCatalogueRepository(db);
  const customersRepository = createCustomersRepository(db);
  // Server events (decision 009): changes reach every node's open streams, over LISTEN/NOTIFY on PostgreSQL.
  const eventsRepository = createEventsRepository(db);
  const eventsLog = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
  const bus = config.DATABASE_URL ? createPostgresBus({ connectionString: config.DATABASE_URL, notify: eventsRepository.notify, log: eventsLog }) : createLocalBus();
  // Notifications reach the retailer's phone through the console's native shell too: pushed by the node that wrote
  // them, when it tells of them.
  const push = deps.push ?? pushProviderFromEnv(config.pushEnv);
  const notificationPush = createNotificationPush({ db, provider: push, log: (message, error) => app.log.warn({ err: error }, message) });
  const events = createEventHub({
    bus, events: eventsRepository, customers: customersRepository, log: eventsLog,
    onEmit: (event) => {
      if (event.type === 'notification') notificationPush.arrived(event.user_ids);
    },
  });
  // Cached sessions follow what ends them on any node: a user's sessions ended, or switches or a block changed
  // (they apply to a whole subtree, so every cached session is read again; keys and details leave them be).
  bus.subscribe((message) => {
    if (message.type === 'sessions') sessions.forgetUser(message.user_id);
    else if (message.type === 'network' && message.access) sessions.forgetAll();
  });
  const ledger = createEmiRepository(db);
  const fileStore = createFileStore(config.UPLOAD_DIR);
  const customers = createCustomersService({
    db, ledger, customers: customersRepository, licenses: createLicensesRepository(db), catalogue, notify: events.notify, removeFile: fileStore.remove,
  });
  const tokenKey = deriveKey(deps.secret, 'access-token');
  const appOrg = await orgs.findById(config.APP_ORG_ID);
  if (!appOrg) throw new Error(`APP_ORG_ID ${config.APP_ORG_ID} is not an organisation in the database`);
  const auth = createAuthService({
    db, users, otps, sessions, sms: smsQueue, limits: config.limits,
    otpKey: deriveKey(deps.secret, 'otp'), tokenKey, sessionTtlDays: config.SESSION_TTL_DAYS, appName: appOrg.name,
    orgName: async (orgId) => (await orgs.findById(orgId ?? config.APP_ORG_ID))?.name,
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Kisht API', version: VERSION, description: 'Device financing: retailer console API. Every response is `{ success, message, data }` or `{ success: false, code, message }`; HTTP 511 means the session is invalid.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          emm: { type: 'apiKey', in: 'header', name: EMM_AUTH_HEADER, description: 'iv:ciphertext (hex) of the timestamp, AES-CBC, key from the path and organisation; anti-replay, not a secret' },
        },
      },
      security: [{ emm: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/api/openapi.json', { config: { public: true, skipEmm: true, callers: ['public'], scope: 'none' }, schema: { hide: true } }, async () => app.swagger());

  registerErrorHandling(app, {
    consoleIndex: path.join(config.CONSOLE_DIST, 'index.html'),
    signInBranding: signInBrandingOf(async () => {
      const org = await orgs.findById(config.APP_ORG_ID);
      if (!org) return null;
      const shown = orgAppConfig(org);
      return { name: shown.company_name || shown.name, theme: shown.theme };
    }),
  });
  await app.register(inputGuard);
  // Imported only when used: the Redis client is a fifth of the start-up's module loading.
  const redisSeen = config.REDIS_URL ? await (await import('./modules/security/emm-seen.redis.ts')).createRedisEmmSeen({ url: config.REDIS_URL, windowMs: config.limits.emmWindowMs, log: eventsLog }) : null;
  // A PGlite server is the only node on its data: its anti-replay values are checked in memory.
  const localSeen = !redisSeen && db.driver === 'pglite' ? await localEmmSeen(db, config.limits.emmWindowMs, eventsLog) : null;
  await app.register(security, {
    emmSeen: redisSeen ?? localSeen ?? createEmmSeenRepository(db), sessions, tokenKey, emm: config.EMM_AUTH, appOrgId: config.APP_ORG_ID,
    emmWindowMs: config.limits.emmWindowMs, sessionTouchSeconds: config.limits.sessionTouchSeconds,
  });

  if (broker.handleWebSocket) {
    await app.register(websocket);
    const handle = broker.handleWebSocket;
    app.get('/mqtt', { websocket: true, config: { public: true, skipEmm: true, callers: ['device'], scope: 'own' }, schema: { hide: true } }, (socket, request) => {
      handle(createWebSocketStream(socket), request.raw);
    });
  }

  // After the security hooks (the row names the caller they found), before any route.
  const networkRepository = createNetworkRepository(db);
  const auditRepository = createAuditRepository(db);
  const audit = createAuditService({
    audit: auditRepository,
    async memberBelow(callerId, userId) {
      const me = await networkRepository.node(callerId);
      return (me && (await networkRepository.nodeUnder(me.path, userId))) ?? null;
    },
  });
  await app.register(auditHook, { audit });
  await app.register(auditRoutes, { audit });
  // Uploads (customer documents, retailer images): route plugins registered after this can read multipart bodies.
  await app.register(multipart);
  await app.register(networkRoutes, {
    network: createNetworkService({ db, users, network: networkRepository, notify: events.notify, sessionsEnded: events.sessionsEnded }),
    images: createMemberImagesService({ network: networkRepository, files: fileStore, notify: events.notify }),
  });
  await app.register(eventsRoutes, { hub: events });
  await app.register(healthRoutes, { db, broker, version: VERSION, operatorKey: operatorKey(deps.secret) });
  await app.register(authRoutes, { auth, signups: createSignupsService({ db, users, signups, appOrgId: config.APP_ORG_ID }) });
  await app.register(sessionsRoutes, { sessions: createSessionsService(sessions) });
  await app.register(configRoutes, { orgs, appOrgId: config.APP_ORG_ID });
  await app.register(catalogueRoutes, { catalogue });
  await app.register(customersRoutes, { customers });
  await app.register(antihackingRoutes, {
    catalogue,
    antihacking: createAntihackingService({
      db, sales: createAntihackingRepository(db), catalogue, licenses: createLicensesRepository(db), notify: events.notify,
      audit: (entry) => auditRepository.record(entry),
    }),
  });
  const antihackingSales = createAntihackingRepository(db);
  await app.register(warrantyRoutes, {
    warranty: createWarrantyService({
      db, sales: createWarrantyRepository(db), licenses: createLicensesRepository(db), files: fileStore, notify: events.notify,
      customer: (caller, id) => customers.visible(caller, id),
      // The anti-hacking list's search by mobile number, within the caller's scope.
      antihackingOf: async (caller, mobile) => (await antihackingSales.list(caller.accountId, ownRetailerOf(caller), { search: mobile, page: 1, limit: 100 })).rows.map(toAntihackingSale),
    }),
  });
  await app.register(antitheftRoutes, { antitheft: createAntitheftService({ db, visible: (caller, id) => customers.visible(caller, id), licenses: createLicensesRepository(db), notify: events.notify }) });
  await app.register(dashboardRoutes, { dashboard: createDashboardRepository(db), catalogue });
  await app.register(notificationsRoutes, { notifications: createNotificationsService({ notifications: createNotificationsRepository(db), notify: events.notify }), push: notificationPush });
  const publicUrl = config.PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const warn = (message: string, error?: unknown) => app.log.warn({ err: error }, message);
  const devicesRepository = createDevicesRepository(db);
  const apple = await createAppleProvider(config, { db, customers, customerRows: customersRepository, publicUrl, log: warn });
  const devicesService = createDevicesService({
    db, devices: devicesRepository, customers, customerRows: customersRepository, auth, ...(broker.accounts ? { accounts: broker.accounts } : {}),
    agent: {
      publicUrl,
      // The embedded broker listens on IPv4; "localhost" may resolve to ::1 first, so a local phone is told 127.0.0.1.
      mqttUrl: config.MQTT_PUBLIC_URL ?? config.MQTT_URL ?? broker.status().url.replace('0.0.0.0', new URL(publicUrl).hostname.replace(/^localhost$/, '127.0.0.1')),
      component: config.AGENT_COMPONENT,
      apkUrl: config.AGENT_APK_URL ?? `${publicUrl}/agent/kisht-agent.apk`,
      apkChecksum: config.AGENT_APK_CHECKSUM,
      tokenTtlHours: 24,
      checkInSeconds: 900,
    },
    // Apple phones are woken through APNs and fetch the command over MDM; every other phone uses the broker.
    transport: async (device, sealed, command) => {
      if (device.channel === 'apple') return apple.deliver(device, command);
      // A publish while the broker is away would wait for the reconnect; fail fast and leave it to the sweeper.
      if (!broker.client.connected) throw new Error('the broker is not connected');
      await withTimeout(broker.client.publishAsync(commandTopic(device.id), sealed, { qos: 1 }), 10_000, 'the broker did not acknowledge the command');
    },
    log: warn,
    notify: events.notify,
    bulkChunk: config.limits.bulkChunk,
    sms: smsQueue,
  });
  // Phones' reports: each is acknowledged only after the service has recorded it (see broker.ts).
  await broker.onDeviceEvent((topic, payload) => devicesService.onDeviceEvent(topic, payload.toString()));
  await app.register(devicesRoutes, { devices: devicesService, checkInsAtOnce: config.DEVICE_CHECK_INS_AT_ONCE });
  apple.attach(devicesService.channel);
  await app.register(appleRoutes, { apple, devices: devicesService });
  const familycare = createFamilyCareService({
    db, visible: (caller, id) => customers.visible(caller, id), devices: devicesRepository, channel: devicesService.channel,
    licenses: createLicensesRepository(db), notify: events.notify,
  });
  await app.register(familyCareRoutes, { familycare });
  devicesService.onEnrolled = (customerId, by, tx) => familycare.onEnrolled(customerId, by, tx);
  const familyUsage = createFamilyCareRepository(db);
  devicesService.channel.onUsage = (device, day, apps, tx) => familyUsage.replaceDay(device.customer_id, day, apps, tx);
  const amapi = createAmapiProvider(config, { db, customers, publicUrl, log: warn });
  await app.register(amapiRoutes, { amapi });
  // generate_emm_code answers AMAPI customers with the Android Management API's QR.
  devicesService.amapiQr = (caller, customer) => amapi.qrFor(customer);
  broker.allowDevices?.((deviceId, password) => devicesService.checkCredentials(deviceId, password));
  // Offers to customers' phones (decision 029): a campaign's offers go out as device commands, woken by push where configured.
  const [adsFrom, adsTo] = config.ADS_SEND_HOURS.split('-').map(Number) as [number, number];
  const ads = createAdsService({
    db, ads: createAdsRepository(db), customers, customerRows: customersRepository, devices: devicesRepository, channel: devicesService.channel, files: fileStore,
    notify: events.notify, sendHours: { from: adsFrom, to: adsTo }, push: createPushWake(push, devicesRepository, warn), ...(deps.adsClock ? { now: deps.adsClock } : {}),
  });
  devicesService.channel.onOffersMoved = (ids) => void ads.offersMoved(ids).catch((error: unknown) => warn('offers results not told', error));
  await app.register(adsRoutes, { ads, authenticateDevice: (header) => devicesService.authenticate(header) });
  const stopAds = config.ADS_CHECK_SECONDS > 0 ? startRepeating(() => ads.runDue(), config.ADS_CHECK_SECONDS * 1000, (error) => app.log.error({ err: error }, 'offers sender failed')) : () => undefined;
  const policies = createDevicePolicies({ db, devices: devicesRepository, channel: devicesService.channel, lockScreen: devicesService.lockScreen, notify: events.notify });
  let lastPlanReleaseSweep = 0;
  const deviceWork = async () => {
    await devicesService.channel.sweep();
    // Bulk batches whose writer stopped or died after answering (decision 017).
    await devicesService.resumeBatches();
    await devicesService.runSchedules();
    await policies.handleEvents();
    await policies.unlockPaid();
    // Plans end and phones fall silent by the day: a look every few minutes is soon enough, and keeps the sweep small.
    if (Date.now() - lastPlanReleaseSweep >= PLAN_RELEASE_SWEEP_MS) {
      lastPlanReleaseSweep = Date.now();
      await policies.releaseEndedPlans(todayInIndia());
      await policies.tellSilentPhones();
    }
  };
  const stopDeviceWork = config.DEVICE_SWEEP_SECONDS > 0 ? startRepeating(deviceWork, config.DEVICE_SWEEP_SECONDS * 1000, (error) => app.log.error({ err: error }, 'device sweep failed')) : () => undefined;
  await app.register(documentsRoutes, {
    documents: createDocumentsService({ customers, repository: customersRepository, orgs, files: fileStore }),
  });
  await app.register(emiRoutes, {
    emi: createEmiService({
      db, emi: ledger, customers, customerRows: customersRepository, users, orgs, notify: events.notify,
      deliverAlert: async (caller, customerId, message, alertId) => (await devicesService.emiAlert(caller, customerId, message, alertId)).state,
    }),
  });
  // Payments through a gateway (decision 015): webhooks are stored, then applied by a worker on every node that
  // applies events; reconciliation asks the gateway about orders left pending. The phone's "Pay now" uses
  // payments.createCustomerOrder.
  const payments = createPaymentsService({
    db, payments: createPaymentsRepository(db), gateway: createPaymentGateway(config), customers, network: networkRepository, users,
    payInLedger: createEmiService({ db, emi: ledger, customers, customerRows: customersRepository, users, orgs }).payOldestFirstIn,
    unlockPaid: (customerIds) => policies.unlockPaid(customerIds), sms: smsQueue, notify: events.notify, log: warn,
    config: { orderMinutes: config.PAYMENT_ORDER_MINUTES, reconcileAfterMinutes: config.PAYMENT_RECONCILE_AFTER_MINUTES, applyEvents: config.PAYMENT_EVENTS_SECONDS > 0 },
  });
  await app.register(paymentsRoutes, { payments });
  const stopPaymentEvents = config.PAYMENT_EVENTS_SECONDS > 0 ? startRepeating(() => payments.drain(), config.PAYMENT_EVENTS_SECONDS * 1000, (error) => app.log.error({ err: error }, 'payment events failed'), true) : () => undefined;
  const stopReconcile = config.PAYMENT_RECONCILE_SECONDS > 0 ? startRepeating(() => payments.reconcile(), config.PAYMENT_RECONCILE_SECONDS * 1000, (error) => app.log.error({ err: error }, 'payment reconciliation failed')) : () => undefined;
  // "I paid" and "Pay now" from the lock screen: a confirmed claim is a ledger payment like any other.
  await app.register(paymentClaimsRoutes, {
    claims: createPaymentClaimsService({
      db, claims: createPaymentClaimsRepository(db), customers, orgs, notify: events.notify,
      emi: createEmiService({ db, emi: ledger, customers, customerRows: customersRepository, users, orgs }),
      afterPaid: (customerId) => policies.unlockPaid([customerId]),
      payOrder: (customerId) => payments.createCustomerOrder(customerId, { createdBy: null }),
    }),
    authenticate: (header) => devicesService.authenticate(header),
  });
  await app.register(localesRoutes, { cacheSeconds: CACHE_SECONDS.query });
  if (outbox) await app.register(devRoutes, { outbox: outbox.outbox });
  await app.register(operatorRoutes, { db, operatorKey: operatorKey(deps.secret), changed: () => sessions.forgetAll() });

  if (existsSync(config.CONSOLE_DIST)) {
    await app.register(fastifyStatic, {
      root: config.CONSOLE_DIST,
      wildcard: false,
      index: false,
      // The build writes Brotli and gzip copies of its hashed assets (console/scripts/precompress.mjs): sent as they are.
      preCompressed: true,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
        else if (name === 'sw.js' || name.endsWith('.html') || name.endsWith('.webmanifest')) res.header('cache-control', 'no-cache');
      },
    });
  }

  const dues = createDuesService({ db, dues: createDuesRepository(db), log: (message, stats) => app.log.info(stats, message), notify: events.notify });
  // 0 switches the scheduler off (tests drive the run themselves).
  const stopDues = config.DUES_CHECK_SECONDS > 0 ? startDuesScheduler(dues, config.DUES_CHECK_SECONDS * 1000, (error) => app.log.error({ err: error }, 'dues run failed')) : () => undefined;

  if (config.SMS_QUEUE_SECONDS > 0) smsQueue.start(config.SMS_QUEUE_SECONDS * 1000);

  async function close() {
    stopDues();
    stopAds();
    stopDeviceWork();
    // Bulk batches being written finish their chunk in flight; the rest goes to the next sweep of any node.
    await devicesService.stop();
    stopPaymentEvents();
    stopReconcile();
    await payments.stop();
    // Open streams end first: the server waits for no connection that never finishes on its own.
    await events.close();
    await smsQueue.stop();
    apple.close();
    await app.close();
    await redisSeen?.close();
    await localSeen?.flush();
    await broker.close();
    if (!deps.db) await db.close();
  }

  return { app, db, broker, close, compileSchemas: schemas.compileAll, services: { events, auth, smsQueue, users, signups, sessions, orgs, customers, dues, devices: devicesService, policies, deviceWork, payments, ads, push, notificationPush } };
}
export type BuiltApp = Awaited<ReturnType<typeof buildApp>>;
