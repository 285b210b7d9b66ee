// HTTP for the admin console (decision 0140). Every /api/admin/* call answers 404 to anyone but an enabled
// administrator, with the same body as a path that does not exist: the hook below runs before the body or
// the query is read, so a player cannot even learn the calls' shapes from their validation errors.
import {
  adminArchiveDownloadSchema,
  adminArchiveParamsSchema,
  adminArchiveRemovedSchema,
  adminArchiveRemoveSchema,
  adminArchiveResponseSchema,
  adminArchivesQuerySchema,
  adminArchivesResponseSchema,
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminCapsResponseSchema,
  adminCapsSchema,
  adminCreditsRequestSchema,
  adminDeleteUserSchema,
  adminForcedResetSchema,
  adminForceResetSchema,
  adminHealthSchema,
  adminJobParamsSchema,
  adminJobRetriedSchema,
  adminLiftTakedownSchema,
  adminSessionsRevokedSchema,
  adminShareParamsSchema,
  adminSharesQuerySchema,
  adminSharesResponseSchema,
  adminTakeDownSchema,
  adminTakedownLiftedSchema,
  adminTakenDownSchema,
  adminUsageQuerySchema,
  adminUsageResponseSchema,
  adminUserDeletedSchema,
  adminUserDeletingSchema,
  adminUserParamsSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  adminUserUpdateSchema,
} from "@storyverse/contract/admin";
import { errorBodySchema } from "@storyverse/contract/errors";
import type { FastifyRequest } from "fastify";
import { authenticate } from "../accounts";
import { actorOf, auditAction, auditLog } from "../audit";
import { bearerToken, currentUser } from "../http/auth";
import { HttpError } from "../http/errors";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import {
  archiveStatus,
  cancelDeletionToEnable,
  downloadArchive,
  listArchives,
  removeArchive,
  retryArchive,
} from "./archives";
import { health, retryJob } from "./health";
import type { HealthReport } from "./health-report";
import { deleteUser, forcePasswordReset, liftTakedown, listShares, takeDown } from "./moderation";
import {
  type AdminContext,
  adjustCredits,
  getCaps,
  isAdmin,
  listUsers,
  revokeSessions,
  setCaps,
  updateUser,
  userDetail,
} from "./service";
import { usageCsv, usageCsvFilename, usageReport } from "./usage";

const tags = ["admin"];

export const adminRoutes: RouteModule<RouteModuleOptions & { healthReport: HealthReport }> = async (
  app,
  { ctx, kit, healthReport },
) => {
  const admin = { ...ctx, sessions: kit.accounts.sessions } satisfies AdminContext;

  const adminOnly = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    const user = token ? await authenticate(kit.accounts, token) : undefined;
    if (!user || !(await isAdmin(ctx, user.id))) {
      const pathname = request.url.split("?")[0] ?? "/";
      throw new HttpError(404, `No API route ${request.method} ${pathname}`);
    }
    request.user = user;
  };
  // Public to the secure-by-default edge (which would answer 401 first); the gate above decides instead.
  const gated = { config: { public: true }, onRequest: adminOnly } as const;
  const security = kit.security;
  // What anyone but an administrator gets, on every call.
  const notFound = { 404: errorBodySchema };
  const conflict = { 409: errorBodySchema };
  const invalid = { 400: errorBodySchema };

  app.get(
    "/api/admin/users",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Accounts, newest first: search by email, username or id (paged by cursor)",
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema, ...notFound },
      },
    },
    async (request) => listUsers(admin, request.query),
  );

  app.get(
    "/api/admin/users/:id",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "One account: verified, disabled, role, balance, storage, stories, sessions, last seen, caps",
        params: adminUserParamsSchema,
        response: { 200: adminUserSchema, ...notFound },
      },
    },
    async (request) => userDetail(admin, request.params.id),
  );

  app.put(
    "/api/admin/users/:id",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Disable or enable, set the role, caps, unlimited credits, or mark verified (audited)",
        description:
          "Enabling an account whose deletion failed cancels that deletion (audited `cancel_deletion`); while its deletion is being made, enabling is a 409.",
        params: adminUserParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...notFound, ...conflict },
      },
    },
    async (request) => {
      const actor = actorOf(currentUser(request));
      if (request.body.disabled === false) {
        await cancelDeletionToEnable(admin, actor, request.params.id, request.body.reason || undefined);
      }
      return updateUser(admin, actor, request.params.id, request.body);
    },
  );

  app.post(
    "/api/admin/users/:id/credits",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Grant credits, or take them back with a negative amount; the reason is required (audited)",
        params: adminUserParamsSchema,
        body: adminCreditsRequestSchema,
        response: { 200: adminUserSchema, ...notFound, ...conflict },
      },
    },
    async (request) => adjustCredits(admin, actorOf(currentUser(request)), request.params.id, request.body),
  );

  app.post(
    "/api/admin/users/:id/sessions/revoke",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Sign the account out everywhere at once (audited)",
        params: adminUserParamsSchema,
        response: { 200: adminSessionsRevokedSchema, ...notFound },
      },
    },
    async (request) => revokeSessions(admin, actorOf(currentUser(request)), request.params.id),
  );

  app.get(
    "/api/admin/caps",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "The spending caps, today's install spending and who is capped",
        response: { 200: adminCapsResponseSchema, ...notFound },
      },
    },
    async () => getCaps(admin),
  );

  app.put(
    "/api/admin/caps",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Set the default daily and monthly caps per account and the install's daily cap (audited)",
        body: adminCapsSchema,
        response: { 200: adminCapsResponseSchema, ...notFound },
      },
    },
    async (request) => setCaps(admin, actorOf(currentUser(request)), request.body),
  );

  app.get(
    "/api/admin/audit",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "The audit log of administrators' actions, newest first (paged by cursor)",
        querystring: adminAuditQuerySchema,
        response: { 200: adminAuditResponseSchema, ...notFound },
      },
    },
    async (request) => auditLog(admin, request.query.cursor),
  );

  app.post(
    "/api/admin/users/:id/password-reset",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Require a new password: the old one stops signing in, sessions end, a reset link is mailed (audited)",
        params: adminUserParamsSchema,
        body: adminForceResetSchema,
        response: { 200: adminForcedResetSchema, ...notFound, ...conflict },
      },
    },
    async (request) =>
      forcePasswordReset(admin, actorOf(currentUser(request)), request.params.id, request.body?.reason),
  );

  app.delete(
    "/api/admin/users/:id",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Delete the account and everything it owns but the anonymised ledger, as its owner could (audited)",
        description:
          "With DELETED_ACCOUNT_ARCHIVE_DAYS above 0 (30 by default) the account is disabled and signed out at once and 202 answers the archive to follow (`GET /api/admin/archives/{id}`): the worker makes the account's data export, keeps it for the operator for that many days, then deletes the account. With 0 the deletion is done before the 200.",
        params: adminUserParamsSchema,
        body: adminDeleteUserSchema,
        response: {
          200: adminUserDeletedSchema,
          202: adminUserDeletingSchema,
          ...invalid,
          ...notFound,
          ...conflict,
        },
      },
    },
    async (request, reply) => {
      const outcome = await deleteUser(admin, actorOf(currentUser(request)), request.params.id, request.body);
      if ("deleting" in outcome) return reply.code(202).send(outcome.deleting);
      return outcome.deleted;
    },
  );

  app.get(
    "/api/admin/archives",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Archives of deleted accounts, newest deletion first (paged by cursor): who, by whom, when, until when, size",
        querystring: adminArchivesQuerySchema,
        response: { 200: adminArchivesResponseSchema, ...invalid, ...notFound },
      },
    },
    async (request) => listArchives(admin, request.query.cursor),
  );

  app.get(
    "/api/admin/archives/:id",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "One archive of a deleted account: the deletion's progress, or the kept archive",
        params: adminArchiveParamsSchema,
        response: { 200: adminArchiveResponseSchema, ...notFound },
      },
    },
    async (request) => archiveStatus(admin, request.params.id),
  );

  app.post(
    "/api/admin/archives/:id/download",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "A signed, expiring link that downloads a kept archive (audited)",
        params: adminArchiveParamsSchema,
        response: { 200: adminArchiveDownloadSchema, ...notFound, ...conflict },
      },
    },
    async (request) => downloadArchive(admin, actorOf(currentUser(request)), request.params.id),
  );

  app.post(
    "/api/admin/archives/:id/retry",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Run a failed deletion again: make the archive (unless made) and delete the account (audited)",
        params: adminArchiveParamsSchema,
        response: { 200: adminArchiveResponseSchema, ...notFound, ...conflict },
      },
    },
    async (request) => retryArchive(admin, actorOf(currentUser(request)), request.params.id),
  );

  app.delete(
    "/api/admin/archives/:id",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Remove a kept archive before its time, or cancel a failed deletion (the account stays disabled) (audited)",
        params: adminArchiveParamsSchema,
        body: adminArchiveRemoveSchema,
        response: { 200: adminArchiveRemovedSchema, ...invalid, ...notFound, ...conflict },
      },
    },
    async (request) =>
      removeArchive(
        admin,
        actorOf(currentUser(request)),
        request.params.id,
        request.body?.reason || undefined,
      ),
  );

  app.get(
    "/api/admin/usage",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Credits spent net of refunds per day, kind or account, for the install or one account (JSON or CSV)",
        description:
          "At most 366 days. `format=csv` answers text/csv with a column per kind (text, pictures, clips, speech, films, other); a CSV download is audited.",
        querystring: adminUsageQuerySchema,
        response: { 200: adminUsageResponseSchema, ...invalid, ...notFound },
      },
    },
    async (request, reply) => {
      const report = await usageReport(admin, request.query);
      if (request.query.format !== "csv") return report;
      await auditAction(admin, actorOf(currentUser(request)), "export_usage", undefined, {
        from: report.from,
        to: report.to,
        group_by: report.group_by,
        ...(report.user_id ? { user_id: report.user_id } : {}),
      });
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${usageCsvFilename(report)}"`)
        .send(usageCsv(report) as never);
    },
  );

  app.get(
    "/api/admin/health",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Vendor latency and errors over the last hour, the job queue and failed jobs, storage, event streams",
        response: { 200: adminHealthSchema, ...notFound },
      },
    },
    async () => health(admin, healthReport),
  );

  app.post(
    "/api/admin/jobs/:kind/:id/retry",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Queue a job that failed for good again (audited)",
        params: adminJobParamsSchema,
        response: { 200: adminJobRetriedSchema, ...notFound },
      },
    },
    async (request) => retryJob(admin, actorOf(currentUser(request)), request.params.kind, request.params.id),
  );

  app.get(
    "/api/admin/shares",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Live share links, newest first: search by link, token, or the owner's email or username",
        querystring: adminSharesQuerySchema,
        response: { 200: adminSharesResponseSchema, ...invalid, ...notFound },
      },
    },
    async (request) => listShares(admin, request.query),
  );

  app.delete(
    "/api/admin/shares/:token",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary: "Take a share link down: it stops working at once and its owner sees the reason (audited)",
        params: adminShareParamsSchema,
        body: adminTakeDownSchema,
        response: { 200: adminTakenDownSchema, ...invalid, ...notFound },
      },
    },
    async (request) =>
      takeDown(admin, actorOf(currentUser(request)), request.params.token, request.body.reason),
  );

  app.post(
    "/api/admin/shares/:token/lift",
    {
      ...gated,
      schema: {
        tags,
        security,
        summary:
          "Lift a takedown: the share link works again and its owner no longer sees the reason (audited)",
        params: adminShareParamsSchema,
        body: adminLiftTakedownSchema,
        response: { 200: adminTakedownLiftedSchema, ...invalid, ...notFound },
      },
    },
    async (request) =>
      liftTakedown(
        admin,
        actorOf(currentUser(request)),
        request.params.token,
        request.body?.reason || undefined,
      ),
  );
};
