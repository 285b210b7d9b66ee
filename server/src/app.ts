// buildApp(deps): a Fastify instance from explicit dependencies, so tests build it with an in-memory
// database and whatever fakes sit at the vendor boundary. Nothing here reads the environment.
import multipart from "@fastify/multipart";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { AccountsContext } from "./accounts";
import { accountRoutes, createSessionCache, followRevocations } from "./accounts";
import { adminRoutes, type HealthReport, startHealthReport } from "./admin/index";
import { composedParts } from "./composition";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { chatRoutes, mediaEventOf } from "./conversation";
import { balanceOf, creditRoutes } from "./credits";
import type { Database } from "./db/client";
import type { EventBuilders } from "./events";
import { eventRoutes } from "./events";
import { exportRoutes } from "./exports";
import { installAuth } from "./http/auth";
import { installCompression } from "./http/compression";
import { installApiDocs } from "./http/docs";
import { installErrorHandling } from "./http/errors";
import { installInputGuards } from "./http/input-guards";
import { loggerOptions } from "./http/logging";
import { installObservability, requestIdFor, requestIdMixin } from "./http/observability";
import { createRouteKit, type Lifecycle } from "./http/route-kit";
import type { RouteModuleOptions, TypedApp } from "./http/route-module";
import { installSecureByDefault } from "./http/secure-by-default";
import { installSecurityHeaders } from "./http/security";
import { installSpa } from "./http/spa";
import { backupRoutes, interopRoutes } from "./interop";
import type { JobQueue } from "./jobs/queue";
import { leaveRoutes } from "./leave";
import type { MediaStorage } from "./media";
import { createMediaSigner, galleryRoutes, mediaFileRoutes, mediaRoutes } from "./media";
import { newsletterRoutes } from "./newsletter";
import { installPasswordLoginSwitch, oidcRoutes } from "./oidc";
import { paymentRoutes } from "./payments";
import { personaRoutes } from "./personas";
import type { Clock } from "./platform/clock";
import { createRateLimiter } from "./platform/rate-limit";
import { connectRedis, watchRedis } from "./platform/redis";
import type { Providers } from "./providers/types";
import { recallRoutes } from "./recall";
import { findLiveStoryLink, sharingRoutes } from "./sharing";
import {
  installBranchScope,
  storiesChanged,
  storiesCreatedBetween,
  storyEventOf,
  storyMediaUses,
  storyRoutes,
} from "./stories";
import {
  livingLoreRoutes,
  loreEventOf,
  loreSettingsRoutes,
  storiesWhoseCardsShow,
  storyCardRoutes,
  storyCardsOfATurn,
} from "./story-cards";
import { studioEventOf, studioRoutes } from "./studio";
import { systemRoutes } from "./system";
import { transcriptionRoutes } from "./transcription";
import { voiceRoutes } from "./voice";

export type AppDeps = {
  config: Config;
  database: Database;
  jobs: JobQueue;
  providers: Providers;
  storage: MediaStorage;
  clock: Clock;
  /** The built web app (web/dist); its index.html answers every non-API path. */
  webDistDir: string;
  /** false silences request logs (tests); otherwise pino at config.logLevel, secrets scrubbed (http/logging.ts). */
  logger?: boolean;
  /** Where log lines go instead of standard output (a test reading everything the app logs). */
  logStream?: { write: (line: string) => void };
  /** The process sets `draining` when it starts to stop, so readiness fails before connections close. */
  lifecycle?: Lifecycle;
  /**
   * The process's report for the Health tab (decision 0159), started and stopped by the process (server.ts);
   * without one the app starts its own and stops it as it closes (tests).
   */
  healthReport?: HealthReport;
};

const SOCKET_IDLE_MS = 10 * 60_000;

/** A hop count trusts that many proxies in front (the nearest first), as Fastify does for a number. */
function fastifyTrustProxy(trust: Config["trustProxy"]) {
  return typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * What each kind of live event says, read by the module that owns the kind when the event is sent. Composed
 * here so the event hub imports no module.
 */
function liveEventBuilders(ctx: AppContext): EventBuilders {
  return {
    media: async ({ userId, subjectId }) => (subjectId ? mediaEventOf(ctx, userId, subjectId) : null),
    credits: ({ userId }) => balanceOf(ctx.db, userId),
    story: async ({ userId, subjectId }) => (subjectId ? storyEventOf(ctx, userId, subjectId) : null),
    studio: async ({ userId, subjectId }) => (subjectId ? studioEventOf(ctx, userId, subjectId) : null),
    lore: async ({ userId, subjectId }) => (subjectId ? loreEventOf(ctx, userId, subjectId) : null),
  };
}

export async function buildApp(deps: AppDeps): Promise<TypedApp> {
  let rootLog: unknown;
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : { ...loggerOptions(deps.config.logLevel, deps.logStream), mixin: requestIdMixin(() => rootLog) },
    bodyLimit: 1024 * 1024,
    // Each request's id: a trusted proxy's X-Request-Id, else a new uuid (http/observability.ts).
    requestIdHeader: false,
    genReqId: requestIdFor(deps.config.trustProxy),
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    // A client that trickles its request in is cut off; the response may still take as long as it needs.
    requestTimeout: deps.config.requestTimeoutMs,
    // A socket with no traffic either way for this long is closed: longer than any answer may take to start
    // (a Studio batch waits on the vendor), and the event stream's heartbeat keeps live streams busy.
    connectionTimeout: SOCKET_IDLE_MS,
    http: {
      headersTimeout: Math.min(60_000, deps.config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, deps.config.requestTimeoutMs / 4)),
    },
  }).withTypeProvider<ZodTypeProvider>();

  rootLog = app.log;
  // First, so every answer (even a refusal by the guards) carries X-Request-Id and is measured.
  installObservability(app, { metricsToken: deps.config.metricsToken });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  installInputGuards(app, {
    maxConnectionsPerAddress: deps.config.trustProxy === false ? deps.config.maxConnectionsPerAddress : 0,
    bodyTimeoutMs: deps.config.bodyTimeoutMs,
  });
  // Presigned S3 links point at the store's own origin, which the page must be allowed to load media from.
  const mediaOrigin =
    deps.storage.kind === "s3" ? new URL(await deps.storage.signedUrl("csp-probe")).origin : undefined;
  await installSecurityHeaders(app, deps.config.appEnv === "production", mediaOrigin);
  // Before every route and the static files, so each gets the compression hook.
  await installCompression(app);
  await installApiDocs(app);
  await app.register(multipart, { limits: { files: 1, fields: 10 } });
  installAuth(app);

  const ctx: AppContext = {
    config: deps.config,
    db: deps.database.db,
    clock: deps.clock,
    jobs: deps.jobs,
    providers: deps.providers,
    storage: deps.storage,
    log: app.log,
    notify: deps.database.notifier,
    ...composedParts,
  };
  // Story calls act on the branch being viewed (or the one ?branch= names): decided once, before any handler.
  installBranchScope(app, ctx);
  const sessions = createSessionCache(deps.clock);
  const unfollow = followRevocations(deps.database.notifier, sessions);
  app.addHook("onClose", async () => unfollow());
  const accounts: AccountsContext = { ...ctx, sessions };
  const redis = deps.config.redisUrl ? await connectRedis(deps.config.redisUrl) : undefined;
  // Its loss and return are logged once each and shown in /api/ready (decision 0128).
  const redisWatch = redis ? watchRedis(redis, app.log) : undefined;
  if (redisWatch) app.addHook("onClose", async () => redisWatch.close());
  const kit = createRouteKit({
    accounts,
    limiter: createRateLimiter(deps.clock, redis ? { kind: "redis", client: redis } : deps.database),
    pingDatabase: deps.database.ping,
    lifecycle: deps.lifecycle ?? { draining: false },
    redisState: redisWatch?.state,
    mediaLinks: { signer: createMediaSigner(deps.config.sessionSecret), clock: deps.clock },
  });

  // Every /api route needs a session unless it says it is public; the hook, the security marker and the
  // shared error answers are added as each route registers.
  installSecureByDefault(app, kit);
  // PASSWORD_LOGIN=off: only OIDC signs in (decision 0146).
  installPasswordLoginSwitch(app, deps.config);
  // Every route module is a plugin of the same shape, registered in order with the same options.
  const routes: RouteModuleOptions = { ctx, kit };
  let healthReport = deps.healthReport;
  if (!healthReport) {
    const own = startHealthReport(ctx, { role: deps.config.worker === "off" ? "http" : "both" });
    app.addHook("onClose", async () => own.stop());
    healthReport = own;
  }
  await app.register(systemRoutes, routes);
  await app.register(newsletterRoutes, routes);
  await app.register(accountRoutes, routes);
  await app.register(leaveRoutes, routes);
  await app.register(oidcRoutes, routes);
  await app.register(adminRoutes, { ...routes, healthReport });
  await app.register(creditRoutes, { ...routes, storiesCreated: storiesCreatedBetween });
  await app.register(paymentRoutes, { ...routes, webDistDir: deps.webDistDir });
  await app.register(chatRoutes, routes);
  await app.register(mediaRoutes, routes);
  await app.register(storyRoutes, { ...routes, turnCards: storyCardsOfATurn });
  await app.register(storyCardRoutes, routes);
  // A story's sub-routes of other modules, under the same story scope: its lore settings, living lore's drafts
  // and the camera's scene state, recall.
  await app.register(loreSettingsRoutes, routes);
  await app.register(livingLoreRoutes, routes);
  await app.register(recallRoutes, routes);
  await app.register(interopRoutes, routes);
  await app.register(studioRoutes, routes);
  await app.register(galleryRoutes, {
    ...routes,
    mediaUses: storyMediaUses(ctx, {
      isShared: async (q, userId, storyId) => !!(await findLiveStoryLink(q, userId, storyId)),
      storiesWhoseCardsShow,
    }),
  });
  await app.register(transcriptionRoutes, routes);
  await app.register(voiceRoutes, routes);
  await app.register(personaRoutes, {
    ...routes,
    storiesReset: (q, userId) => storiesChanged(q, [{ userId }]),
  });
  await app.register(mediaFileRoutes, routes);
  await app.register(exportRoutes, routes);
  await app.register(backupRoutes, routes);
  await app.register(eventRoutes, { ...routes, builders: liveEventBuilders(ctx) });
  await app.register(sharingRoutes, { ...routes, pages: { webDistDir: deps.webDistDir, mediaOrigin } });

  await installSpa(app, deps.webDistDir, mediaOrigin);
  return app;
}
