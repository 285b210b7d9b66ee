// HTTP for whole-story backups: GET /api/stories/{id}/backup (the owner's whole story, every branch, as one
// archive, streamed), GET /api/stories/{id}/backup/summary (what it holds, for the dialog), and restores in
// two steps (decision 0123): POST /api/stories/restore takes an archive (multipart field `file`, up to
// BACKUP_FILE_MAX_MB), streams it to a folder of its own (never held in memory), checks the whole JSON and
// its bounds and answers a preview; POST /api/stories/restore/{restore_id}/confirm queues the restore job;
// GET /api/stories/restore/{restore_id} is its progress and outcome. All are free; a few a minute per user is
// plenty for a person, and an upload takes the player's one import slot (import-gate.ts).
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  BACKUP_FILE_MAX_MB,
  backupSummaryResponseSchema,
  type StoryRestore,
  storyRestoreResponseSchema,
} from "@storyverse/contract/interop";
import { z } from "zod";
import type { AppContext } from "../context";
import { asAttachment } from "../http/attachment";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { Conflict, TooLarge } from "../platform/errors";
import { restoredStory } from "../stories";
import { backupSummary, storyBackup } from "./backup";
import { withImportSlot } from "./import-gate";
import { previewRestore } from "./restore";
import { invalidFile } from "./restore-archive";
import {
  ARCHIVE_FILE,
  discardWaiting,
  findRestore,
  insertRestore,
  markQueued,
  newUploadDir,
  type RestoreRow,
  restoreUnderWay,
  storyRestoreJob,
} from "./restore-job";

const tags = ["interop"];
const restoreParams = z.object({ restore_id: z.uuid("Restore not found") });
const pollRule = { name: "restore-poll-user", limit: 600, windowMs: 10 * 60_000 };
const backupRule = { name: "backup-user", limit: 10, windowMs: 60_000 };
const restoreRule = { name: "restore-user", limit: 10, windowMs: 10 * 60_000 };
const BACKUP_FILE_MAX_BYTES = BACKUP_FILE_MAX_MB * 1024 * 1024;
const TOO_LARGE_DETAIL = `A story backup can be at most ${BACKUP_FILE_MAX_MB} MB.`;

const isTooLarge = (error: unknown) =>
  (error as { code?: string } | null)?.code === "FST_REQ_FILE_TOO_LARGE" ||
  (error as { statusCode?: number } | null)?.statusCode === 413;

/** A restore as the API shows it (the story once it is done). */
async function restoreBody(ctx: AppContext, row: RestoreRow): Promise<StoryRestore> {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    preview: row.preview as StoryRestore["preview"],
    story:
      row.status === "completed" && row.storyId
        ? await restoredStory(ctx, row.userId, row.storyId).catch(() => null)
        : null,
    notes: row.notes,
    error: row.error,
  };
}

export const backupRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/stories/:id/backup",
    {
      schema: {
        tags,
        summary:
          "Download a whole story (every branch with its messages, checkpoints, cards and settings, and every media file) as one archive",
        params: storyParams,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limiter.hit(backupRule, user.id);
      const file = await storyBackup(ctx, user.id, scopedStory(request).id);
      return asAttachment(reply, file.filename, "application/zip").send(file.stream);
    },
  );

  app.get(
    "/api/stories/:id/backup/summary",
    {
      schema: {
        tags,
        summary: "What the story's backup holds: its branches, checkpoints, and pictures and clips",
        params: storyParams,
        response: { 200: backupSummaryResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, ...(await backupSummary(ctx, user.id, scopedStory(request).id)) };
    },
  );

  app.post(
    "/api/stories/restore",
    {
      config: { slowBody: true },
      schema: {
        tags,
        summary: `Upload a story backup and see what it holds before restoring it (multipart field \`file\`; up to ${BACKUP_FILE_MAX_MB} MB; free). Nothing is restored until POST /api/stories/restore/{restore_id}/confirm`,
        consumes: ["multipart/form-data"],
        response: {
          200: storyRestoreResponseSchema,
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
        const dir = await newUploadDir(ctx);
        let kept = false;
        try {
          const archive = path.join(dir, ARCHIVE_FILE);
          let bytes = 0;
          try {
            const part = await request.file({ limits: { fileSize: BACKUP_FILE_MAX_BYTES, files: 1 } });
            if (!part) throw invalidFile("No file was sent: put the backup in a field named `file`.");
            part.file.on("data", (chunk: Buffer) => {
              bytes += chunk.length;
            });
            await pipeline(part.file, createWriteStream(archive));
            if (part.file.truncated) throw new TooLarge(TOO_LARGE_DETAIL);
          } catch (error) {
            if (isTooLarge(error)) throw new TooLarge(TOO_LARGE_DETAIL);
            throw error;
          }
          const preview = await previewRestore(ctx, user.id, archive);
          // This upload replaces any of the player's still waiting for a confirm.
          await discardWaiting(ctx, user.id);
          const row = await insertRestore(ctx.db, {
            userId: user.id,
            uploadDir: dir,
            uploadBytes: bytes,
            preview,
            at: ctx.clock.now(),
          });
          kept = true;
          return { success: true as const, restore: await restoreBody(ctx, row) };
        } finally {
          // A refused upload leaves nothing; a previewed one waits for its confirm (or the sweep).
          if (!kept) await rm(dir, { recursive: true, force: true });
        }
      });
    },
  );

  app.post(
    "/api/stories/restore/:restore_id/confirm",
    {
      schema: {
        tags,
        summary:
          "Restore the previewed backup as a new story of yours: a job; poll GET /api/stories/restore/{restore_id}",
        params: restoreParams,
        response: {
          202: storyRestoreResponseSchema,
          401: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { restore_id: id } = request.params;
      const row = await findRestore(ctx.db, user.id, id);
      if (row.status === "previewed" && (await restoreUnderWay(ctx.db, user.id))) {
        throw new Conflict(
          "Another of your restores is still running. Confirm this one when it has finished.",
        );
      }
      await ctx.jobs.ready(storyRestoreJob);
      const queued = await ctx.db.transaction(async (tx) => {
        if (!(await markQueued(tx, user.id, id, ctx.clock.now()))) return false;
        await ctx.jobs.send(storyRestoreJob, { restoreId: id }, { tx });
        return true;
      });
      if (!queued) throw new Conflict("This restore was already confirmed, or it has ended.");
      reply.code(202);
      return {
        success: true as const,
        restore: await restoreBody(ctx, await findRestore(ctx.db, user.id, id)),
      };
    },
  );

  app.get(
    "/api/stories/restore/:restore_id",
    {
      schema: {
        tags,
        summary: "A restore's progress and outcome (the restored story once completed)",
        params: restoreParams,
        response: { 200: storyRestoreResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limiter.hit(pollRule, user.id);
      const row = await findRestore(ctx.db, user.id, request.params.restore_id);
      return { success: true as const, restore: await restoreBody(ctx, row) };
    },
  );
};
