// buildApp(deps): a Fastify instance from explicit dependencies, so tests build it with an in-memory
// database and whatever fakes sit at the vendor boundary. Nothing here reads the environment.
import type { IncomingMessage, ServerResponse } from "node:http";
import multipart from "@fastify/multipart";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { registerAccountRoutes } from "./accounts/routes";
import type { AccountsContext } from "./accounts/service";
import { createSessionCache } from "./accounts/session-cache";
import { registerChatRoutes } from "./chat/routes";
import type { Config } from "./config";
import type { AppContext } from "./context";
import { registerCreditRoutes } from "./credits/routes";
import type { Database } from "./db/client";
import { installAuth } from "./http/auth";
import { installApiDocs } from "./http/docs";
import { installErrorHandling } from "./http/errors";
import { createRouteKit } from "./http/route-kit";
import { installSecurityHeaders } from "./http/security";
import { installSpa } from "./http/spa";
import type { JobQueue } from "./jobs/queue";
import { registerMediaFileRoutes } from "./media/file-routes";
import { registerGalleryRoutes } from "./media/gallery-routes";
import { registerMediaRoutes } from "./media/routes";
import { createMediaSigner } from "./media/storage/signing";
import type { MediaStorage } from "./media/storage/types";
import { registerNewsletterRoutes } from "./newsletter/routes";
import { registerPaymentRoutes } from "./payments/routes";
import type { Clock } from "./platform/clock";
import { createRateLimiter } from "./platform/rate-limit";
import type { Providers } from "./providers/types";
import { registerStoryRoutes } from "./stories/routes";
import { registerStudioRoutes } from "./studio/routes";
import { registerSystemRoutes } from "./system/routes";
import { registerTranscriptionRoutes } from "./transcription/routes";

export type AppDeps = {
  config: Config;
  database: Database;
  jobs: JobQueue;
  providers: Providers;
  storage: MediaStorage;
  clock: Clock;
  /** The built web app (web/dist); its index.html answers every non-API path. */
  webDistDir: string;
  /** false silences request logs (tests); otherwise pino at config.logLevel. */
  logger?: boolean;
};

export type TypedApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export async function buildApp(deps: AppDeps): Promise<TypedApp> {
  const app = Fastify({
    logger: deps.logger === false ? false : { level: deps.config.logLevel },
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    trustProxy: deps.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  // Presigned S3 links point at the store's own origin, which the page must be allowed to load media from.
  const mediaOrigin =
    deps.storage.kind === "s3" ? new URL(await deps.storage.signedUrl("csp-probe")).origin : undefined;
  await installSecurityHeaders(app, deps.config.appEnv === "production", mediaOrigin);
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
  };
  const accounts: AccountsContext = { ...ctx, sessions: createSessionCache(deps.clock) };
  const limiter = createRateLimiter(deps.clock);
  const kit = createRouteKit(accounts, limiter);

  registerSystemRoutes(app, deps);
  registerNewsletterRoutes(app, deps);
  registerAccountRoutes(app, accounts, limiter);
  registerCreditRoutes(app, ctx, kit);
  registerPaymentRoutes(app, ctx, kit);
  registerChatRoutes(app, ctx, kit);
  registerMediaRoutes(app, ctx, kit);
  registerStoryRoutes(app, ctx, kit);
  registerStudioRoutes(app, ctx, kit);
  registerGalleryRoutes(app, ctx, kit);
  registerTranscriptionRoutes(app, ctx, kit);
  registerMediaFileRoutes(app, deps.storage, {
    signer: createMediaSigner(deps.config.sessionSecret),
    clock: deps.clock,
  });

  await installSpa(app, deps.webDistDir, mediaOrigin);
  return app;
}
