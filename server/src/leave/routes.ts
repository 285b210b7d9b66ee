// HTTP for leaving with your data (decision 0143): POST /api/account/export starts the account's archive (a
// job), GET /api/account/export/{id} follows it (anyone else's: 404) and, once made, gives a signed download
// link; DELETE /api/account deletes the account, confirmed by the current password (by a fresh sign-in at the
// OIDC provider instead: oidc/routes.ts, decision 0158).
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  accountExportResponseSchema,
  deleteAccountRequestSchema,
  deleteAccountResponseSchema,
} from "@storyverse/contract/leave";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import { ACCOUNT_DELETE_RULE, deleteOwnAccount } from "./delete";
import { accountExportStatus, startAccountExport } from "./export";

const tags = ["accounts"];
/** An archive reads the whole account: a few an hour is plenty for a person. */
const exportRule = { name: "account-export-user", limit: 10, windowMs: 60 * 60_000 };

export const leaveRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.post(
    "/api/account/export",
    {
      schema: {
        tags,
        summary:
          "Start making an archive of everything the account owns (every story's backup, the gallery, the Studio, the credit history, the profile): a job; follow it at GET /api/account/export/{id}. One at a time: while one is being made, it is answered (200)",
        response: {
          200: accountExportResponseSchema,
          202: accountExportResponseSchema,
          429: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limiter.hit(exportRule, user.id);
      const started = await startAccountExport(ctx, user.id);
      return reply.code(started.started ? 202 : 200).send({ success: true as const, export: started.export });
    },
  );

  app.get(
    "/api/account/export/:id",
    {
      logLevel: "warn",
      schema: {
        tags,
        summary: "The account archive's progress and step, and once made its signed download link",
        params: z.object({ id: z.uuid("Export not found") }),
        response: { 200: accountExportResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      export: await accountExportStatus(ctx, currentUser(request).id, request.params.id),
    }),
  );

  app.delete(
    "/api/account",
    {
      schema: {
        tags,
        summary:
          "Delete the account, confirmed by its current password (an account that signs in through the OIDC provider may instead confirm by a fresh sign-in there: POST /api/auth/oidc/delete-account): every row and stored file of it goes, its sessions end everywhere, and only the ledger's money facts stay, anonymised, for accounting",
        body: deleteAccountRequestSchema,
        response: { 200: deleteAccountResponseSchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await kit.limiter.hit(ACCOUNT_DELETE_RULE, user.id);
      return deleteOwnAccount({ ...kit.accounts, storage: ctx.storage, log: ctx.log }, user.id, {
        password: request.body.password,
      });
    },
  );
};
