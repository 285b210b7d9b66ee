// HTTP for the admin console (decision 0140). Every /api/admin/* call answers 404 to anyone but an enabled
// administrator, with the same body as a path that does not exist: the hook below runs before the body or
// the query is read, so a player cannot even learn the calls' shapes from their validation errors.
import {
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
  adminSessionsRevokedSchema,
  adminShareParamsSchema,
  adminSharesQuerySchema,
  adminSharesResponseSchema,
  adminTakeDownSchema,
  adminTakenDownSchema,
  adminUsageQuerySchema,
  adminUsageResponseSchema,
  adminUserDeletedSchema,
  adminUserParamsSchema,
  adminUserSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  adminUserUpdateSchema,
} from "@storyverse/contract/admin";
import { errorBodySchema } from "@storyverse/contract/errors";
import type { FastifyRequest } from "fastify";
import { authenticate } from "../accounts/service";
import { bearerToken, currentUser } from "../http/auth";
import { HttpError } from "../http/errors";
import type { RouteModule } from "../http/route-module";
import { health, retryJob } from "./health";
import { deleteUser, forcePasswordReset, listShares, takeDown } from "./moderation";
import {
  type AdminContext,
  actorOf,
  adjustCredits,
  auditAction,
  auditLog,
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

export const adminRoutes: RouteModule = async (app, { ctx, kit }) => {
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
        params: adminUserParamsSchema,
        body: adminUserUpdateSchema,
        response: { 200: adminUserSchema, ...notFound, ...conflict },
      },
    },
    async (request) => updateUser(admin, actorOf(currentUser(request)), request.params.id, request.body),
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
        params: adminUserParamsSchema,
        body: adminDeleteUserSchema,
        response: { 200: adminUserDeletedSchema, ...invalid, ...notFound, ...conflict },
      },
    },
    async (request) => deleteUser(admin, actorOf(currentUser(request)), request.params.id, request.body),
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
    async () => health(admin),
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
};
