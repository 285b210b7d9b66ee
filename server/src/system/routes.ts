// Health probe and capability discovery.
import { errorBodySchema } from "@storyverse/contract/errors";
import { configResponseSchema, healthResponseSchema } from "@storyverse/contract/system";
import type { AppDeps, TypedApp } from "../app";
import { ServiceUnavailable } from "../http/errors";
import { describeServer } from "./capabilities";

export function registerSystemRoutes(app: TypedApp, deps: AppDeps): void {
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["system"],
        summary: "Liveness and database round trip",
        response: { 200: healthResponseSchema, 503: errorBodySchema },
      },
      logLevel: "warn",
    },
    async (request) => {
      try {
        await deps.database.ping();
      } catch (error) {
        request.log.warn({ err: error }, "health check: database unreachable");
        throw new ServiceUnavailable("Database unavailable");
      }
      return { status: "ok" as const };
    },
  );

  app.get(
    "/api/config",
    {
      schema: {
        tags: ["system"],
        summary: "Which capabilities are on",
        response: { 200: configResponseSchema },
      },
    },
    async () => describeServer(deps.config),
  );
}
