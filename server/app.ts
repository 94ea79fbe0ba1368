import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { IMPORT_MAX_FILE_MB } from '../contract/contacts';
import { msg } from '../contract/messages';
import { type AiResponder, OpenAiResponder } from './chatbot/ai';
import { InboundFiles } from './chatbot/inbound-media';
import { chatbotSubscriber } from './chatbot/pipeline';
import { type ChangeBus, LocalBus, PgBus } from './cluster/bus';
import { ProcessRegistry, type RegistryOptions } from './cluster/process-registry';
import type { Config } from './config';
import { type Db, projectRoot } from './db/client';
import type { AppDeps } from './deps';
import { AppError } from './errors';
import { pruneJobsChore } from './jobs/chores';
import { JobRunner } from './jobs/runner';
import { AppState } from './lib/app-state';
import { Foreground } from './lib/foreground';
import { EmailNotices } from './mail/email-notices';
import { createMailer } from './mail/mailer';
import { createMediaStore } from './media/store';
import { adminRoutes } from './modules/admin';
import { authRoutes, emailConfirmationRoutes, passwordResetRoutes, twoFactorRoutes } from './modules/auth';
import { backupRoutes } from './modules/backup';
import { campaignsRoutes } from './modules/campaigns';
import { botConfigRoutes } from './modules/chatbot';
import { connectionsRoutes } from './modules/connections';
import { contactsRoutes, contactsState } from './modules/contacts';
import { conversationsRoutes } from './modules/conversations';
import { groupsRoutes } from './modules/groups';
import { messagesRoutes, savedMessageAsContent } from './modules/messages';
import { metricsRoutes } from './modules/metrics';
import { ConnectionAlerts, notificationsRoutes } from './modules/notifications';
import { plansRoutes } from './modules/plans';
import { presenceRoutes } from './modules/presence';
import { queuesRoutes } from './modules/queues';
import { quickRepliesRoutes } from './modules/quick-replies';
import { reportsRoutes } from './modules/reports';
import { changePasswordRoutes, getAccountSettings, settingsRoutes } from './modules/settings';
import { systemRoutes } from './modules/system';
import { invitationRoutes, teamRoutes } from './modules/team';
import {
  accountFileOpener,
  deleteStoredJob,
  fileFromLink,
  loadUpload,
  moveLegacyImagesChore,
  uploadsRoutes,
} from './modules/uploads';
import { type VerificationOptions, verificationRoutes } from './modules/verification';
import { cloudApiRoutes, sessionPollFastPath, webhookFastPath, whatsappSessionRoutes } from './modules/whatsapp';
import { registerAccessControl, registerPublicPlugin, SESSION_COOKIE } from './plugins/access';
import { canonicalUrl } from './plugins/canonical-url';
import { clientErrorHandler } from './plugins/client-error';
import { crossSiteGuard } from './plugins/csrf';
import { registerErrorHandler } from './plugins/error-handler';
import { registerStrictJsonParser } from './plugins/json-body';
import { databaseRateLimitStore } from './plugins/rate-limit-store';
import { registerSecurityHeaders, securityHeaders } from './plugins/security-headers';
import { onNotification } from './records/notify';
import { PresenceTracker } from './records/presence-tracker';
import { startScheduledCampaign } from './sending/campaign-lifecycle';
import { Dispatcher, type DispatcherOptions } from './sending/dispatcher';
import { receiptsSubscriber } from './sending/receipts';
import { SessionStore } from './sessions/session-store';
import { CONNECTIONS_TOPIC, ConnectionDirectory } from './whatsapp/connection-directory';
import { ConnectionStore } from './whatsapp/connection-store';
import type { DriverProvider } from './whatsapp/driver';
import { inboundMediaFetchers } from './whatsapp/inbound-media-fetchers';
import { ConnectionManager } from './whatsapp/manager';
import { ConnectionRegistry } from './whatsapp/registry';
import type { SimulatorTimings } from './whatsapp/simulator/simulator-driver';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  /** Serve the built web app from dist/web when it exists (off in API tests). */
  serveWeb?: boolean;
  sessionCacheMs?: number;
  drivers?: DriverProvider;
  /** Faster simulator steps (tests). */
  simulatorTimings?: SimulatorTimings;
  /** Pacing of the background number verification (tests make it fast). */
  verification?: VerificationOptions;
  /** The campaign dispatcher: faster ticks and pacing in tests; `autoStart: false` leaves it stopped. */
  dispatcher?: Partial<Pick<DispatcherOptions, 'tickMs' | 'timeScale' | 'exclusive' | 'cloudConcurrency'>> & {
    autoStart?: boolean;
  };
  /** The chatbot's AI (a fake in tests); by default OpenAI-compatible from OPENAI_* when a key is set. */
  ai?: AiResponder;
  /** The chatbot's clock (tests of business hours and the 24-hour window). */
  chatbotClock?: () => Date;
  /**
   * The PostgreSQL URL `db` was opened on: changes are then announced to the other processes
   * (LISTEN/NOTIFY). Without it this process is alone (the embedded database, most tests).
   */
  databaseUrl?: string;
  /** The process registry's beat and dead-after (tests shorten them), and this process's id. */
  registry?: RegistryOptions;
}

export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance & { deps: AppDeps }> {
  const { config, db } = opts;
  // The modules' caches and listeners: this app's own, shared with no other app in the process.
  const state = new AppState();
  const contacts = contactsState(state);
  // The 2-second session poll of a cached session is answered before Fastify (see the fast path);
  // the handler is set once the services it reads exist.
  let fastPoll: (request: IncomingMessage, response: ServerResponse) => boolean = () => false;
  // Likewise Meta's webhook deliveries of the plain shape (see webhook.fast-path.ts).
  let fastWebhook: (request: IncomingMessage, response: ServerResponse) => boolean = () => false;
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: config.TRUST_PROXY,
    // Every spelling of a path reaches the same route (see canonical-url.ts).
    rewriteUrl: (request) => canonicalUrl(request.url ?? '/'),
    routerOptions: { caseSensitive: false },
    clientErrorHandler,
    serverFactory: (handler) => {
      const server = createServer((request, response) => {
        if (!fastPoll(request, response) && !fastWebhook(request, response)) handler(request, response);
      });
      // Fastify applies its keep-alive window only to servers it creates; keep its 72 s default
      // (Node's own 5 s closes sockets that clients are about to reuse).
      server.keepAliveTimeout = 72_000;
      return server;
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (config.OUTBOUND_ALLOW_PRIVATE !== false) {
    app.log.warn(
      { allowed: config.OUTBOUND_ALLOW_PRIVATE },
      'OUTBOUND_ALLOW_PRIVATE is on: image links may reach this machine and its private network (tests and local demos only)',
    );
  }

  // The other processes on this database: who is live (work is shared among them) and the bus
  // that tells them what this one changed.
  const processes = new ProcessRegistry(db, {
    ...opts.registry,
    onError: (err) => app.log.warn({ err }, 'process registry beat failed'),
  });
  // Work for later, as rows of the jobs table that any live process runs (server/jobs/).
  const jobs = new JobRunner({
    db,
    processId: processes.id,
    onError: (err, job) => app.log.warn({ err, job }, 'job failed'),
  });
  jobs.register(pruneJobsChore);
  const bus: ChangeBus = opts.databaseUrl
    ? new PgBus({
        connectionString: opts.databaseUrl,
        origin: processes.id,
        notify: (channel, payload) => db.execute(sql`select pg_notify(${channel}, ${payload})`),
        onError: (err) => app.log.warn({ err }, 'change bus error'),
      })
    : new LocalBus((err) => app.log.error({ err }, 'change handler failed'));
  const sessions = new SessionStore(
    db,
    {
      idleMs: config.SESSION_IDLE_HOURS * 3_600_000,
      absoluteMs: config.SESSION_ABSOLUTE_DAYS * 86_400_000,
      cacheMs: opts.sessionCacheMs ?? 5_000,
    },
    (change) => bus.publish('sessions', change),
  );
  const registry = new ConnectionRegistry();
  const ai =
    opts.ai ??
    new OpenAiResponder(
      { apiKey: config.OPENAI_API_KEY, baseURL: config.OPENAI_BASE_URL, timeoutMs: config.OPENAI_TIMEOUT_MS },
      app.log,
    );
  // The accounts' numbers: each process reads them once and again when any process changes them.
  // They are written by one store alone (whatsapp/connection-store.ts), shared by the directory and the send loop.
  const store = new ConnectionStore();
  const directory = new ConnectionDirectory(db, (userId) => bus.publish(CONNECTIONS_TOPIC, userId), store);
  // Webhooks are answered before the chatbot's replies are worked on (Meta retries slow webhooks).
  const foreground = new Foreground();
  // File bytes: the bucket of MEDIA_S3_* when set, else PostgreSQL's chunks when processes share
  // the database, else DATA_DIR's disk.
  const mediaStore = createMediaStore({
    setting: config.MEDIA_STORE,
    databaseKind: opts.databaseUrl ? 'postgres' : 'pglite',
    dataDir: config.DATA_DIR,
    db,
    s3: config.mediaS3,
  });
  // Received files are fetched from WhatsApp in the background, by whichever process runs the job.
  const inboundFiles = new InboundFiles({
    db,
    store: mediaStore,
    jobs,
    fetchers: inboundMediaFetchers({ db, config }),
    log: app.log,
  });
  jobs.register(inboundFiles.job);
  jobs.register(deleteStoredJob(mediaStore));
  jobs.register(moveLegacyImagesChore(mediaStore));
  // On PostgreSQL other processes may receive the same contact's messages: each contact's turn is
  // then taken in the database (chatbot/turns.ts), not only in this process.
  const chatbot = chatbotSubscriber({
    files: inboundFiles,
    // The account's files, for a rule that sends one (read where the connection is).
    openFile: (userId, fileId) => openFile(userId, fileId),
    db,
    log: app.log,
    contactsChanged: (userId) => contacts.changed(userId),
    ai,
    now: opts.chatbotClock,
    foreground,
    crossProcess: Boolean(opts.databaseUrl),
    botEnabledOn: async (userId, connectionId) => (await directory.get(userId, connectionId))?.botEnabled ?? true,
  });
  // E-mail (SMTP_URL, else the log in development): notices of campaigns the engine ends or pauses
  // come from its notifications, so the engine needs no mailer.
  const mailer = createMailer(config, app.log);
  const emailNotices = new EmailNotices({ db, mailer, config });
  const stopEmailNotices = onNotification(db, emailNotices.onNotification);
  // Connection lost / back: the account's notifications and activity log (an e-mail after 10 minutes).
  const connectionAlerts = new ConnectionAlerts({
    db,
    log: app.log,
    emailNotices,
    jobs,
    connectionUp: (connectionId): boolean => connections.numberStatus(connectionId).isConnected,
  });
  const loadImage = (userId: string, id: string) => loadUpload(db, mediaStore, userId, id);
  const openFile = accountFileOpener(db, mediaStore);
  const connections = new ConnectionManager({
    config,
    db,
    registry,
    directory,
    log: app.log,
    simulatorTimings: opts.simulatorTimings,
    accountChannel: async (userId) => {
      const { channel, autoReconnect } = await getAccountSettings(db, userId);
      return { channel, autoReconnect };
    },
    // The engines own what the WhatsApp layer carries: receipts move campaign recipients, inbound
    // messages go through the chatbot's pipeline (opt-out first).
    subscribers: [receiptsSubscriber({ db, log: app.log }), chatbot, connectionAlerts.subscriber],
    foreground,
    // A send handed over from another process names an uploaded image or a file by id; the holder reads it.
    loadImage,
    openFile,
    announceCloudCredentials: (connectionId) => bus.publish('cloud-credentials', connectionId),
    // Each personal connection is held by one live process (a lease); the others see its state and
    // forward commands to it (whatsapp/connection-leases.ts).
    cluster: { processes, bus },
  });
  const drivers = opts.drivers ?? connections;
  const dispatcher = new Dispatcher({
    loadImage,
    openFile,
    db,
    drivers,
    numbers: (userId, connectionId) => directory.get(userId, connectionId),
    store,
    numberChanged: (userId) => directory.changed(userId),
    log: app.log,
    settings: (userId) => getAccountSettings(db, userId),
    startScheduled: async (userId, campaignId) => {
      await startScheduledCampaign(db, userId, campaignId);
    },
    tickMs: opts.dispatcher?.tickMs ?? config.DISPATCH_TICK_MS,
    timeScale: opts.dispatcher?.timeScale,
    exclusive: opts.dispatcher?.exclusive,
    leaseMs: config.DISPATCH_LEASE_MS,
    cloudThroughput: config.WHATSAPP_CLOUD_THROUGHPUT,
    cloudConcurrency: opts.dispatcher?.cloudConcurrency,
    cluster: { id: processes.id, owns: (key) => processes.owns(key), liveIds: () => processes.liveIds() },
  });
  // What one process changes, the others drop or apply (docs/decisions/039-several-processes-revised.md).
  const botConfigChanged = (userId: string) => {
    chatbot.configChanged(userId);
    // The bot's dialog also saves the business hours the send loop keeps to.
    dispatcher.settingsChanged(userId);
  };
  const settingsChanged = (userId: string) => dispatcher.settingsChanged(userId);
  bus.subscribe('sessions', (change) => sessions.forgetRemote(change));
  bus.subscribe('bot-config', botConfigChanged);
  bus.subscribe('settings', settingsChanged);
  bus.subscribe('cloud-credentials', (connectionId) => connections.cloud.forget(connectionId));
  bus.subscribe(CONNECTIONS_TOPIC, (userId) => directory.forget(userId));
  bus.subscribe('contacts', (userId) => contacts.forget(userId));
  bus.subscribe('processes', () => void processes.refresh().catch(() => undefined));
  bus.onReset(() => {
    sessions.forgetRemote('all');
    contacts.forget(null);
    connections.cloud.forgetAll();
    directory.forgetAll();
  });
  contacts.announceWith((userId) => bus.publish('contacts', userId));
  processes.onChange(() => {
    void dispatcher.membershipChanged().catch((err) => app.log.warn({ err }, 'taking over lanes failed'));
  });
  // Who is online: each process counts its own requests and announces an account's first one.
  const presence = new PresenceTracker({
    db,
    log: app.log,
    announce: (userId, atMs) => bus.publish('presence', `${userId} ${atMs}`),
  });
  bus.subscribe('presence', (key) => {
    const [userId, at] = key.split(' ');
    if (userId) presence.seenElsewhere(userId, Number(at));
  });
  const deps: AppDeps = {
    config,
    db,
    state,
    sessions,
    registry,
    drivers,
    connections,
    cloudApi: connections.cloud,
    media: {
      store: mediaStore,
      openFile,
      fromLink: (userId, link) =>
        fileFromLink(
          {
            db,
            store: mediaStore,
            outbound: { allowPrivate: config.OUTBOUND_ALLOW_PRIVATE },
            quotaMb: config.UPLOADS_QUOTA_MB,
            log: app.log,
          },
          userId,
          link,
        ),
    },
    sending: {
      dispatcher,
      settingsChanged: (userId) => {
        settingsChanged(userId);
        bus.publish('settings', userId);
      },
      loadImage,
      savedMessage: (userId, id) => savedMessageAsContent(db, userId, id),
    },
    chatbot: {
      ai,
      idle: chatbot.idle,
      configChanged: (userId) => {
        botConfigChanged(userId);
        bus.publish('bot-config', userId);
      },
    },
    announce: (change, userId) =>
      change === 'settings' ? deps.sending.settingsChanged(userId) : deps.chatbot.configChanged(userId),
    mail: { mailer, notices: emailNotices },
    presence,
    cluster: { processes, bus },
    jobs,
    routes: [],
  };
  const headers = securityHeaders({
    hsts: config.PUBLIC_URL?.startsWith('https://') ?? false,
    // WhatsApp Business profile pictures answered by the Graph API.
    extraImageSources: ['https://pps.whatsapp.net'],
  });
  fastPoll = sessionPollFastPath(deps, headers.api);
  fastWebhook = webhookFastPath({ cloudApi: deps.cloudApi, log: app.log }, headers.api);

  app.addHook('onReady', async () => {
    if (bus instanceof PgBus) await bus.start();
    await processes.join();
    // The others count this process in at once rather than at their next beat.
    bus.publish('processes', processes.id);
    await jobs.start();
  });
  if (opts.dispatcher?.autoStart ?? true) app.addHook('onReady', () => dispatcher.start());
  // Closing (SIGTERM, a rolling restart): first this process stops taking work, and the others
  // hear it at once and take their share; then its lanes and connections are handed over below.
  app.addHook('preClose', async () => {
    await processes.drain().catch((err) => app.log.warn({ err }, 'draining failed'));
    bus.publish('processes', processes.id);
  });
  // The send loop stops first (what is in flight finishes), then sockets close without logging
  // out, so the next start reconnects without a new QR code.
  app.addHook('onClose', async () => {
    // Jobs in flight finish or go back to the queue for another process.
    await jobs.stop();
    connectionAlerts.close();
    await dispatcher.stop();
    await connections.shutdown();
    stopEmailNotices();
    await mailer.close();
    await processes.leave().catch((err) => app.log.warn({ err }, 'leaving the process registry failed'));
    await bus.close();
  });
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      deps.routes.push({
        method,
        url: route.url,
        access: route.config?.access ?? 'undeclared',
        team: route.config?.team,
        schema: route.schema,
      });
    }
  });

  registerErrorHandler(app);
  registerStrictJsonParser(app);
  registerSecurityHeaders(app, headers);
  await app.register(cookie);
  // One file per request, at most the contact import's size; image uploads ask for less.
  await app.register(multipart, {
    limits: { fileSize: IMPORT_MAX_FILE_MB * 1024 * 1024, files: 1, fields: 5, parts: 6, headerPairs: 50 },
  });
  await app.register(rateLimit, {
    global: false,
    // Counted in the database, so the limits hold across every process on it.
    store: databaseRateLimitStore(db, app.log),
    errorResponseBuilder: () => new AppError('RATE_LIMITED', msg.auth.tooManyRequests),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.PRODUCT_NAME} API`, version: '1.0.0', description: 'Cookie-session JSON API.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'disparo_session' } } },
      security: [{ session: [] }],
    },
    transform: jsonSchemaTransform,
  });

  registerAccessControl(
    app,
    sessions,
    crossSiteGuard({ publicUrl: config.PUBLIC_URL, sessionCookie: SESSION_COOKIE }),
    (userId) => deps.presence.seen(userId),
  );
  await registerPublicPlugin(app, swaggerUi, { routePrefix: '/api/docs' });

  await app.register(systemRoutes, { prefix: '/api', ...deps });
  await app.register(authRoutes, { prefix: '/api/auth', ...deps });
  await app.register(adminRoutes, { prefix: '/api/admin', ...deps });
  await app.register(metricsRoutes, { prefix: '/api/metrics', ...deps });
  await app.register(reportsRoutes, { prefix: '/api/reports', ...deps });
  await app.register(campaignsRoutes, { prefix: '/api/campaigns', ...deps });
  await app.register(whatsappSessionRoutes, { prefix: '/api', ...deps });
  await app.register(changePasswordRoutes, { prefix: '/api/auth', ...deps });
  await app.register(passwordResetRoutes, { prefix: '/api/auth', ...deps });
  await app.register(twoFactorRoutes, { prefix: '/api/auth', ...deps });
  await app.register(emailConfirmationRoutes, { prefix: '/api/auth', ...deps });
  await app.register(settingsRoutes, { prefix: '/api/settings', ...deps });
  await app.register(plansRoutes, { prefix: '/api/plan-activations', ...deps });
  await app.register(cloudApiRoutes, { prefix: '/api/whatsapp-business', ...deps });
  await app.register(connectionsRoutes, { prefix: '/api/connections', ...deps });
  await app.register(contactsRoutes, { prefix: '/api/contacts', ...deps });
  await app.register(groupsRoutes, { prefix: '/api/groups', ...deps });
  await app.register(messagesRoutes, { prefix: '/api/messages', ...deps });
  await app.register(quickRepliesRoutes, { prefix: '/api/quick-replies', ...deps });
  await app.register(queuesRoutes, { prefix: '/api/queues', ...deps });
  await app.register(uploadsRoutes, { prefix: '/api/uploads', ...deps });
  await app.register(botConfigRoutes, { prefix: '/api/bot-config', ...deps });
  await app.register(conversationsRoutes, { prefix: '/api/conversations', ...deps });
  await app.register(backupRoutes, { prefix: '/api/backup', ...deps });
  await app.register(verificationRoutes, { prefix: '/api/users', ...deps, verification: opts.verification });
  await app.register(notificationsRoutes, { prefix: '/api/notifications', ...deps });
  await app.register(presenceRoutes, { prefix: '/api', ...deps });
  await app.register(teamRoutes, { prefix: '/api/team', ...deps });
  await app.register(invitationRoutes, { prefix: '/api/auth', ...deps });

  const webRoot = join(projectRoot(), 'dist', 'web');
  const serveWeb = (opts.serveWeb ?? true) && existsSync(join(webRoot, 'index.html'));
  // The single-page app's shell, read once: every app page answers it (static files live in their
  // own public scope, so the not-found handler does not reach their sendFile).
  const indexHtml = serveWeb ? readFileSync(join(webRoot, 'index.html')) : Buffer.alloc(0);
  const assetsDir = join(webRoot, 'assets');
  if (serveWeb) {
    await registerPublicPlugin(app, fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      cacheControl: false,
      // Built asset names carry a content hash, so browsers may keep them forever.
      setHeaders: (res, path) => {
        if (path.startsWith(assetsDir)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0].toLowerCase();
    if (path.startsWith('/api/') || path === '/api' || request.method !== 'GET' || !serveWeb) {
      return reply.status(404).send({ success: false, code: 'NOT_FOUND', message: msg.generic.notFound });
    }
    // Every other page is the single-page app; its router decides what to show.
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });

  return Object.assign(app, { deps });
}
