// HTTP for sign-in by OIDC (decision 0146): start (to the provider), callback (back to the web app with the
// app's own session, the link screen or the reason it failed), link (the password that consents), logout
// (RP-initiated) and back-channel logout; and a signed-in account's deletion confirmed by a fresh sign-in there
// (decision 0158: start, then the same callback). Registered only when OIDC_ISSUER_URL is set.
import { authResponseSchema, passwordSignInOffMessage } from "@storyverse/contract/accounts";
import { errorBodySchema } from "@storyverse/contract/errors";
import { oidcDeleteOptionSchema, oidcDeleteStartSchema } from "@storyverse/contract/leave";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { accountLimitsFor } from "../accounts";
import type { Config } from "../config";
import { currentUser } from "../http/auth";
import { cookieValue } from "../http/cookies";
import type { RouteModule } from "../http/route-module";
import { ACCOUNT_DELETE_RULE } from "../leave";
import { DomainError, Forbidden } from "../platform/errors";
import {
  backchannelLogout,
  beginDeleteAccount,
  beginSignIn,
  confirmLink,
  deleteRefusalOf,
  finishDeleteAccount,
  finishSignIn,
  linkedToProvider,
  type OidcDeleteContext,
  refusalOf,
  signOut,
} from "./service";

const tags = ["accounts"];
const STATE_COOKIE = "sv_oidc_state";
/** A deletion's state (decision 0158): a cookie of its own, so the callback knows what the browser began. */
const DELETE_COOKIE = "sv_oidc_delete";
const COOKIE_PATH = "/api/auth/oidc";

export const oidcRoutes: RouteModule = async (app, { ctx: appCtx, kit }) => {
  const config = appCtx.config;
  if (!config.oidc) return;
  const ctx: OidcDeleteContext = { ...appCtx, sessions: kit.accounts.sessions, oidc: config.oidc };
  const { limiter } = kit;
  const accountLimits = accountLimitsFor(config.addressLimitsFactor);
  const secure = config.appUrl.startsWith("https:") ? "; Secure" : "";
  const landing = `${config.appUrl}/auth/oidc`;

  app.get(
    "/api/auth/oidc/start",
    { config: { public: true }, schema: { tags, summary: "Sign in with the OIDC provider (a redirect)" } },
    async (request, reply) => {
      await limiter.hit(accountLimits.loginPerAddress, request.ip);
      const { url, state } = await beginSignIn(ctx);
      // The state is bound to this browser: the callback refuses a state this cookie does not carry.
      reply.header(
        "set-cookie",
        `${STATE_COOKIE}=${state}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
      );
      return reply.redirect(url, 302);
    },
  );

  app.get(
    "/api/auth/oidc/callback",
    {
      config: { public: true },
      schema: { tags, summary: "Where the OIDC provider sends the browser back (a redirect to the app)" },
    },
    async (request, reply) => {
      reply.header("set-cookie", [
        `${STATE_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
        `${DELETE_COOKIE}=; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
      ]);
      reply.header("cache-control", "no-store");
      const query = request.url.includes("?") ? request.url.slice(request.url.indexOf("?") + 1) : "";
      const signInState = cookieValue(request.headers.cookie, STATE_COOKIE);
      const deleteState = cookieValue(request.headers.cookie, DELETE_COOKIE);
      const answered = new URLSearchParams(query).get("state");
      // A deletion this browser began answers to its own cookie; a state neither cookie holds is refused as a
      // deletion while one is under way (its refusal then reaches the dialog that began it).
      if (deleteState && (answered === deleteState || answered !== signInState)) {
        return reply.redirect(`${landing}#${await deleteAnswer(request, query, deleteState)}`, 302);
      }
      let fragment: URLSearchParams;
      try {
        const outcome = await finishSignIn(ctx, query, signInState);
        fragment =
          outcome.kind === "signed_in"
            ? new URLSearchParams({ access_token: outcome.auth.access_token! })
            : new URLSearchParams({ link: outcome.token, email: outcome.email });
      } catch (error) {
        if (!(error instanceof DomainError)) request.log.error({ err: error }, "OIDC sign-in failed");
        const detail =
          error instanceof DomainError
            ? error.detail
            : "The sign-in could not be completed. Please try again.";
        const reason = error instanceof DomainError ? refusalOf(error) : undefined;
        fragment = new URLSearchParams({
          error: detail,
          ...(error instanceof DomainError && { code: error.code }),
          ...(reason && { reason }),
        });
      }
      // In the fragment: never sent to a server or in a Referer; the web app reads it and clears it at once.
      return reply.redirect(`${landing}#${fragment.toString()}`, 302);
    },
  );

  /** A deletion's callback: `deleted=1`, or `delete_refused` with the reason (nothing deleted). */
  async function deleteAnswer(request: FastifyRequest, query: string, deleteState: string): Promise<string> {
    try {
      await finishDeleteAccount(ctx, query, deleteState);
      return new URLSearchParams({ deleted: "1" }).toString();
    } catch (error) {
      if (!(error instanceof DomainError)) request.log.error({ err: error }, "OIDC deletion failed");
      const reason = error instanceof DomainError ? deleteRefusalOf(error) : undefined;
      return new URLSearchParams({
        delete_refused: reason ?? "untrusted_answer",
        ...(error instanceof DomainError && { error: error.detail }),
      }).toString();
    }
  }

  app.get(
    "/api/auth/oidc/delete-account",
    {
      schema: {
        tags,
        summary:
          "Whether this account signs in through the OIDC provider, and so may confirm its deletion by a fresh sign-in there",
        response: { 200: oidcDeleteOptionSchema },
      },
    },
    async (request) => ({ linked: await linkedToProvider(ctx, currentUser(request).id) }),
  );

  app.post(
    "/api/auth/oidc/delete-account",
    {
      schema: {
        tags,
        summary:
          "Begin deleting this account, confirmed by a fresh sign-in at the OIDC provider (prompt=login, max_age=0): the provider's page to send the browser to. Its callback deletes the account only for the provider account linked to it, signed in within the last few minutes, while this session lasts; the web app's /auth/oidc then says deleted=1 or delete_refused=<reason>",
        response: { 200: oidcDeleteStartSchema, 403: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await limiter.hit(ACCOUNT_DELETE_RULE, user.id);
      const { url, state } = await beginDeleteAccount(ctx, {
        userId: user.id,
        sessionTokenHash: user.sessionTokenHash,
      });
      reply.header(
        "set-cookie",
        `${DELETE_COOKIE}=${state}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=600${secure}`,
      );
      reply.header("cache-control", "no-store");
      return { url };
    },
  );

  app.post(
    "/api/auth/oidc/link",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Link the OIDC sign-in to an existing account, confirmed by its password",
        body: z.object({ token: z.string().min(1).max(200), password: z.string().min(1).max(1024) }),
        response: {
          200: authResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      await limiter.hit(accountLimits.loginPerAddress, request.ip);
      return confirmLink(ctx, request.body.token, request.body.password, {
        limiter,
        address: request.ip,
        limits: accountLimits,
      });
    },
  );

  app.post(
    "/api/auth/oidc/logout",
    {
      schema: {
        tags,
        summary: "End this session; for a session begun at the provider, where to end the provider's too",
        response: { 200: z.object({ success: z.literal(true), end_session_url: z.string().nullable() }) },
      },
    },
    async (request) => ({
      success: true as const,
      end_session_url: await signOut(ctx, currentUser(request)),
    }),
  );

  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 64 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post(
      "/api/auth/oidc/backchannel-logout",
      {
        config: { public: true },
        schema: {
          tags,
          summary: "The provider's back-channel logout (a signed logout token ends the sessions it names)",
          body: z.object({ logout_token: z.string().min(1).max(16_000) }),
          response: { 200: z.object({ ended: z.number().int() }), 400: errorBodySchema },
        },
      },
      async (request, reply) => {
        reply.header("cache-control", "no-store");
        return { ended: await backchannelLogout(ctx, request.body.logout_token) };
      },
    );
  });
};

/** The password routes PASSWORD_LOGIN=off turns off (decision 0146): sign-in, registration, reset by mail. */
const PASSWORD_ROUTES = new Set([
  "/api/login",
  "/api/register",
  "/api/forgot-password",
  "/api/reset-password",
]);

export function installPasswordLoginSwitch(
  app: FastifyInstance,
  config: Pick<Config, "passwordLogin" | "oidc">,
) {
  if (config.passwordLogin) return;
  const name = config.oidc?.providerName ?? "single sign-on";
  app.addHook("onRequest", async (request) => {
    if (request.method === "POST" && PASSWORD_ROUTES.has(request.url.split("?")[0]!)) {
      throw new Forbidden(passwordSignInOffMessage(name));
    }
  });
}
