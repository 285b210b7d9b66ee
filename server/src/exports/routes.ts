// HTTP for exports. Only the owner exports a story (anyone else: 404). Every export is made by the job worker
// (decision 0131); an identical request is answered with the export already made (200, reused) instead of a
// new job (202). The direct download waits for that job and streams its stored file.
import { errorBodySchema } from "@storyverse/contract/errors";
import { startExportRequestSchema, storyExportResponseSchema } from "@storyverse/contract/exports";
import { filmResponseSchema } from "@storyverse/contract/film";
import { z } from "zod";
import { asAttachment } from "../http/attachment";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { exportDownload, exportStatus, exportWhenMade, startExport } from "./export-files";
import { filmStatus, startFilm } from "./film";
import * as exports from "./service";

const tags = ["exports"];
/** Making a book reads and shrinks every picture of the story: a few a minute is plenty for a person. */
const exportRule = { name: "export-user", limit: 20, windowMs: 60_000 };
const exportParams = storyParams.extend({ exportId: z.uuid("Export not found") });

export const exportRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/stories/:id/export",
    {
      schema: {
        tags,
        summary:
          "Download a story as Markdown (zip with images), EPUB 3 or PDF, made by the export job (the request waits for it; an unchanged story's export is sent at once); narration=true makes a read-along EPUB (offline voice; a paid voice only through POST .../exports)",
        params: storyParams,
        querystring: z.object({
          // Checked by the service so that the message can name the allowed values.
          format: z.string().optional().catch(undefined),
          paper: z.string().optional().catch(undefined),
          /** true: a read-along EPUB (the narration as EPUB 3 Media Overlays); free voices only. */
          narration: z.string().optional().catch(undefined),
        }),
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const format = exports.parseFormat(request.query.format);
      const paper = exports.parsePaper(request.query.paper);
      const narration = exports.parseNarration(request.query.narration, format);
      await kit.limiter.hit(exportRule, user.id);
      // The client going away stops the wait (the job goes on; its file is reused by the next request).
      const gone = new AbortController();
      reply.raw.once("close", () => gone.abort());
      const file = await exportWhenMade(
        ctx,
        user.id,
        scopedStory(request).id,
        { format, paper, narration },
        gone.signal,
      );
      return asAttachment(reply, file.filename, file.contentType)
        .header("content-length", file.size)
        .send(file.stream);
    },
  );

  app.post(
    "/api/stories/:id/exports",
    {
      schema: {
        tags,
        summary:
          "Start making a story's export in a job (follow it, then download its file); narration: true makes a read-along EPUB (free offline; a vendor voice is paid per 1,000 characters)",
        params: storyParams,
        body: startExportRequestSchema,
        response: {
          200: storyExportResponseSchema,
          202: storyExportResponseSchema,
          402: errorBodySchema,
          503: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limiter.hit(exportRule, user.id);
      const started = await startExport(ctx, user.id, scopedStory(request).id, request.body);
      return reply
        .code(started.reused ? 200 : 202)
        .send({ success: true as const, export: started.export, reused: started.reused });
    },
  );

  app.get(
    "/api/stories/:id/exports/:exportId",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "An export's status and progress",
        params: exportParams,
        response: { 200: storyExportResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      export: await exportStatus(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.exportId,
      ),
    }),
  );

  app.get(
    "/api/stories/:id/exports/:exportId/file",
    {
      schema: {
        tags,
        summary: "Download a finished export",
        params: exportParams,
      },
    },
    async (request, reply) => {
      const { exportId } = request.params;
      const { id } = scopedStory(request);
      const file = await exportDownload(ctx, currentUser(request).id, id, exportId);
      return asAttachment(reply, file.filename, file.contentType)
        .header("content-length", file.size)
        .send(file.stream);
    },
  );

  app.post(
    "/api/stories/:id/film",
    {
      schema: {
        tags,
        summary:
          "Start making the story's film, narrated when a voice is configured (free offline; a vendor voice is paid per 1,000 characters; one at a time per story)",
        params: storyParams,
        response: {
          200: filmResponseSchema,
          202: filmResponseSchema,
          402: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limitGeneration(user.id);
      const started = await startFilm(ctx, user.id, scopedStory(request).id);
      return reply.code(started.reused ? 200 : 202).send(started);
    },
  );

  app.get(
    "/api/stories/:id/film",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "The story's newest film: status, progress and, when made, its URL",
        params: storyParams,
        response: { 200: filmResponseSchema },
      },
    },
    async (request) => filmStatus(ctx, currentUser(request).id, scopedStory(request).id),
  );
};
