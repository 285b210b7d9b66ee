// buildApp(deps): a Fastify instance from explicit dependencies, so tests build it with an in-memory
// database and whatever fakes sit at the vendor boundary. Nothing here reads the environment.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Capability } from "@storyverse/contract/system";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RawServerDefault } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { registerAccountRoutes } from "./accounts/routes";
import type { AccountsContext } from "./accounts/service";
import type { Config } from "./config";
import type { Database } from "./db/client";
import { installAuth } from "./http/auth";
import { installApiDocs } from "./http/docs";
import { installErrorHandling } from "./http/errors";
import { installSecurityHeaders } from "./http/security";
import { installSpa } from "./http/spa";
import type { JobQueue } from "./jobs/queue";
import { registerNewsletterRoutes } from "./newsletter/routes";
import type { Clock } from "./platform/clock";
import { createRateLimiter } from "./platform/rate-limit";
import { registerSystemRoutes } from "./system/routes";

export type AppDeps = {
  config: Config;
  database: Database;
  jobs: JobQueue;
  /** Capabilities reported by GET /api/config. */
  capabilities: Capability[];
  /** The built web app (web/dist); its index.html answers every non-API path. */
  webDistDir: string;
  clock: Clock;
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
    // Request ids make one user's failure traceable in the log without exposing internals.
    requestIdHeader: false,
    trustProxy: deps.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  await installSecurityHeaders(app, deps.config.appEnv === "production");
  await installApiDocs(app);

  installAuth(app);

  const limiter = createRateLimiter(deps.clock);
  const accounts: AccountsContext = {
    db: deps.database.db,
    clock: deps.clock,
    jobs: deps.jobs,
    config: deps.config,
  };

  registerSystemRoutes(app, deps);
  registerNewsletterRoutes(app, deps);
  registerAccountRoutes(app, accounts, limiter);

  await installSpa(app, deps.webDistDir);
  return app;
}

export type { FastifyInstance };
