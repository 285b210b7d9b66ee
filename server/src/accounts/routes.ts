// HTTP for accounts (registration, sign-in, verification, password reset, profile): schemas from the
// contract, rules in the service.
import {
  authResponseSchema,
  availabilityResponseSchema,
  emailRequestSchema,
  emailSchema,
  linkUsedResponseSchema,
  loginRequestSchema,
  logoutResponseSchema,
  messageResponseSchema,
  profileUpdateSchema,
  registerRequestSchema,
  resetPasswordRequestSchema,
  usernameSchema,
  userSchema,
  verifyEmailResponseSchema,
  verifyUserResponseSchema,
} from "@storyverse/contract/accounts";
import { errorBodySchema } from "@storyverse/contract/errors";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule } from "../http/route-module";
import type { RateLimitRule } from "../platform/rate-limit";
import { accountLimitsFor } from "./limits";
import * as accounts from "./service";
import { clearedSignupBrowserCookie, signedUpHere, signupBrowserCookie } from "./signup-browser";

const tags = ["accounts"];

export const accountRoutes: RouteModule = async (app, { kit }) => {
  // The session cache lives in this context, so logout and resets evict what the shared auth hook reads.
  const ctx = kit.accounts;
  const { limiter } = kit;
  const accountLimits = accountLimitsFor(ctx.config.addressLimitsFactor);
  const secret = ctx.config.sessionSecret;
  const secure = ctx.config.appUrl.startsWith("https:");

  /**
   * Whether this mail request may send a mail: within the account's allowance, or (once strangers have
   * spent it) when this address asks for the account for the first time in the window, up to a hard cap.
   * Called after the per-account-and-address bucket counted this request.
   */
  const mayMail = async (mails: RateLimitRule, perAddress: RateLimitRule, email: string, ip: string) => {
    if (await limiter.allow(mails, email)) return true;
    const firstFromHere = (await limiter.peek(perAddress, `${email}|${ip}`)).count <= 1;
    return firstFromHere && (await limiter.allow(accountLimits.mailsPerAccountHardCap, email));
  };

  app.post(
    "/api/register",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Create an account",
        body: registerRequestSchema,
        response: { 200: authResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await limiter.hit(
        { ...accountLimits.registerPerAddress, limit: ctx.config.signupsPerAddressPerHour },
        request.ip,
      );
      const answer = await accounts.register(ctx, request.body);
      // The account waits for its link: this browser is marked as the one that signed up (decision 0153).
      if (answer.access_token === null) {
        reply.header("set-cookie", signupBrowserCookie(secret, answer.user_id, ctx.clock.now(), secure));
      }
      return answer;
    },
  );

  app.post(
    "/api/login",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Sign in with an email or a username",
        body: loginRequestSchema,
        response: {
          200: authResponseSchema,
          401: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      await limiter.hit(accountLimits.loginPerAddress, request.ip);
      return accounts.login(ctx, request.body.email, request.body.password, {
        limiter,
        address: request.ip,
        limits: accountLimits,
      });
    },
  );

  app.post(
    "/api/logout",
    {
      schema: {
        tags,
        summary: "End this session",
        response: { 200: logoutResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await accounts.logout(ctx, currentUser(request));
      return { success: true as const };
    },
  );

  app.get(
    "/api/check-username/:username",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Is a username free?",
        params: z.object({ username: usernameSchema }),
        response: { 200: availabilityResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await limiter.hit(accountLimits.availabilityPerAddress, request.ip);
      return accounts.usernameAvailability(ctx, request.params.username);
    },
  );

  app.get(
    "/api/check-email/:email",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Is an email address free?",
        params: z.object({ email: emailSchema }),
        response: { 200: availabilityResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await limiter.hit(accountLimits.availabilityPerAddress, request.ip);
      return accounts.emailAvailability(ctx, request.params.email);
    },
  );

  app.get(
    "/api/verify-email/:token",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Use the link from the verification mail",
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: verifyEmailResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await limiter.hit(accountLimits.verifyPerAddress, request.ip);
      const now = ctx.clock.now();
      const answer = await accounts.verifyEmail(ctx, request.params.token, (userId) =>
        signedUpHere(secret, request.headers.cookie, userId, now),
      );
      // A session is never cached, and the mark has done its work once the link is used.
      reply.header("cache-control", "no-store");
      reply.header("set-cookie", clearedSignupBrowserCookie(secure));
      return answer;
    },
  );

  app.post(
    "/api/resend-verification",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Mail a new verification link",
        body: emailRequestSchema,
        response: { 200: messageResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const email = request.body.email.toLowerCase();
      await limiter.hit(accountLimits.resendPerAddress, request.ip);
      await limiter.hit(accountLimits.resendPerAccountAndAddress, `${email}|${request.ip}`);
      const sendMail = await mayMail(
        accountLimits.resendMailsPerAccount,
        accountLimits.resendPerAccountAndAddress,
        email,
        request.ip,
      );
      return accounts.resendVerification(ctx, request.body.email, sendMail);
    },
  );

  app.post(
    "/api/forgot-password",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Mail a password reset link (same answer whether or not the account exists)",
        body: emailRequestSchema,
        response: { 200: messageResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      const email = request.body.email.toLowerCase();
      await limiter.hit(accountLimits.forgotPerAddress, request.ip);
      await limiter.hit(accountLimits.forgotPerAccountAndAddress, `${email}|${request.ip}`);
      const sendMail = await mayMail(
        accountLimits.forgotMailsPerAccount,
        accountLimits.forgotPerAccountAndAddress,
        email,
        request.ip,
      );
      return accounts.requestPasswordReset(ctx, request.body.email, sendMail);
    },
  );

  app.post(
    "/api/reset-password",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Choose a new password with the link from the reset mail",
        body: resetPasswordRequestSchema,
        response: { 200: linkUsedResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => {
      await limiter.hit(accountLimits.resetPerAddress, request.ip);
      return accounts.resetPassword(ctx, request.body.token, request.body.password, {
        limiter,
        address: request.ip,
        limits: accountLimits,
      });
    },
  );

  app.get(
    "/api/user/verify",
    {
      schema: {
        tags,
        summary: "Check the session",
        response: { 200: verifyUserResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => ({ valid: true as const, ...(await accounts.getUser(ctx, currentUser(request).id)) }),
  );

  app.get(
    "/api/profile",
    {
      schema: {
        tags,
        summary: "The signed-in user",
        response: { 200: userSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => accounts.getUser(ctx, currentUser(request).id),
  );

  app.patch(
    "/api/profile",
    {
      schema: {
        tags,
        summary: "Change the signed-in user's interface language (kept on the account; mails follow it)",
        body: profileUpdateSchema,
        response: { 200: userSchema, 400: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request) => accounts.updateProfile(ctx, currentUser(request).id, request.body),
  );
};
