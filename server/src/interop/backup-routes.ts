// HTTP for whole-story backups: GET /api/stories/{id}/backup (the owner's story as one archive, streamed) and
// POST /api/stories/restore (an archive, multipart field `file`, up to BACKUP_FILE_MAX_MB, as a new story of
// the caller's). The upload is streamed to a temporary file (never held in memory), read from there and
// removed whatever happens. Both are free; a few a minute per user is plenty for a person, and a restore
// takes the player's one import slot (import-gate.ts), so no one runs several 500 MB restores at once.
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { errorBodySchema } from "@storyverse/contract/errors";
import { BACKUP_FILE_MAX_MB, importedStoryResponseSchema } from "@storyverse/contract/interop";
import { z } from "zod";
import { asAttachment } from "../http/attachment";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { TooLarge } from "../platform/errors";
import { storyBackup } from "./backup";
import { withImportSlot } from "./import-gate";
import { restoreStory } from "./restore";
import { invalidFile } from "./restore-archive";

const tags = ["interop"];
const storyParams = z.object({ id: z.uuid("Story not found") });
const backupRule = { name: "backup-user", limit: 10, windowMs: 60_000 };
const restoreRule = { name: "restore-user", limit: 10, windowMs: 10 * 60_000 };
const BACKUP_FILE_MAX_BYTES = BACKUP_FILE_MAX_MB * 1024 * 1024;
const TOO_LARGE_DETAIL = `A story backup can be at most ${BACKUP_FILE_MAX_MB} MB.`;

const isTooLarge = (error: unknown) =>
  (error as { code?: string } | null)?.code === "FST_REQ_FILE_TOO_LARGE" ||
  (error as { statusCode?: number } | null)?.statusCode === 413;

export const backupRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/stories/:id/backup",
    {
      schema: {
        tags,
        summary:
          "Download a whole story (messages with versions, cards, settings and every media file) as one archive",
        params: storyParams,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limiter.hit(backupRule, user.id);
      const file = await storyBackup(ctx, user.id, request.params.id);
      return asAttachment(reply, file.filename, "application/zip").send(file.stream);
    },
  );

  app.post(
    "/api/stories/restore",
    {
      config: { slowBody: true },
      schema: {
        tags,
        summary: `Restore a story backup as a new story of yours (multipart field \`file\`; up to ${BACKUP_FILE_MAX_MB} MB; free)`,
        consumes: ["multipart/form-data"],
        response: {
          200: importedStoryResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          413: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limiter.hit(restoreRule, user.id);
      if (!request.isMultipart()) {
        throw invalidFile("Send the backup as multipart/form-data, in a field named `file`.");
      }
      return withImportSlot(kit.limiter, user.id, async () => {
        const dir = await mkdtemp(path.join(os.tmpdir(), "storyverse-restore-"));
        try {
          const archive = path.join(dir, "backup.zip");
          try {
            const part = await request.file({ limits: { fileSize: BACKUP_FILE_MAX_BYTES, files: 1 } });
            if (!part) throw invalidFile("No file was sent: put the backup in a field named `file`.");
            await pipeline(part.file, createWriteStream(archive));
            if (part.file.truncated) throw new TooLarge(TOO_LARGE_DETAIL);
          } catch (error) {
            if (isTooLarge(error)) throw new TooLarge(TOO_LARGE_DETAIL);
            throw error;
          }
          return await restoreStory(ctx, user.id, archive);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      });
    },
  );
};
