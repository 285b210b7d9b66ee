// Health probe, capability discovery and /robots.txt.
import { errorBodySchema } from "@storyverse/contract/errors";
import { configResponseSchema, healthResponseSchema, readyResponseSchema } from "@storyverse/contract/system";
import type { RouteModule } from "../http/route-module";
import { Unavailable } from "../platform/errors";
import { describeServer } from "./capabilities";

/**
 * What crawlers may read (docs/decisions/0088-robots-txt.md): the landing page and shared stories (/s/{token},
 * with the shared story's data and picture under /api/shared/, which link previews fetch). The rest of the
 * API is not for crawlers, nor are the one-time links sent by mail.
 */
export const ROBOTS_TXT = `User-agent: *
Allow: /api/shared/
Disallow: /api/
Disallow: /verify-email
Disallow: /forgot-password
Allow: /
`;

// The probes take no input, but like every route they answer 400 to a NUL in the address (`?x=%00`, the
// input guards), so their documents say so.
export const systemRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/health",
    {
      config: { public: true },
      schema: {
        tags: ["system"],
        summary: "Liveness and database round trip",
        response: { 200: healthResponseSchema, 400: errorBodySchema, 503: errorBodySchema },
      },
      logLevel: "warn",
    },
    async (request) => {
      try {
        await kit.pingDatabase();
      } catch (error) {
        request.log.warn({ err: error }, "health check: database unreachable");
        throw new Unavailable("Database unavailable");
      }
      return { status: "ok" as const };
    },
  );

  app.get(
    "/api/ready",
    {
      config: { public: true },
      schema: {
        tags: ["system"],
        summary: "Readiness: 503 while the process is shutting down or its database is unreachable",
        response: { 200: readyResponseSchema, 400: errorBodySchema, 503: errorBodySchema },
      },
      logLevel: "warn",
    },
    async (request) => {
      if (kit.lifecycle.draining) throw new Unavailable("Shutting down");
      try {
        await kit.pingDatabase();
      } catch (error) {
        request.log.warn({ err: error }, "readiness check: database unreachable");
        throw new Unavailable("Database unavailable");
      }
      // Lost Redis leaves the process serving with rate limits counted in memory (decision 0128).
      const redis = kit.redisState?.();
      return {
        status: "ready" as const,
        details: {
          database: "ok" as const,
          ...(redis ? { redis: redis === "ok" ? ("ok" as const) : ("degraded" as const) } : {}),
        },
      };
    },
  );

  app.get(
    "/api/config",
    {
      config: { public: true },
      schema: {
        tags: ["system"],
        summary: "Which capabilities are on",
        response: { 200: configResponseSchema, 400: errorBodySchema },
      },
    },
    // The edits come from the image provider itself: each adapter declares what it can edit (decision 0145).
    async () => ({
      ...describeServer(ctx.config),
      image_edit_kinds: [...(ctx.providers.image.editKinds ?? [])],
      // And what the video provider takes for a clip (decision 0160).
      video_clip_features: {
        last_frame: ctx.providers.video.clipFeatures?.lastFrame ?? false,
        camera: ctx.providers.video.clipFeatures?.camera ?? false,
      },
    }),
  );

  app.get("/robots.txt", { schema: { hide: true }, logLevel: "warn" }, async (_request, reply) =>
    reply.header("cache-control", "public, max-age=3600").type("text/plain; charset=utf-8").send(ROBOTS_TXT),
  );
};
