// What most authenticated routes need, built once per app: the auth hook, the OpenAPI security
// marker, and the per-user generation limit.
import type { onRequestAsyncHookHandler } from "fastify";
import type { AccountsContext } from "../accounts/service";
import type { RateLimiter } from "../platform/rate-limit";
import { requireUser } from "./auth";

export type RouteKit = {
  auth: onRequestAsyncHookHandler;
  security: { bearerAuth: string[] }[];
  limiter: RateLimiter;
  /** Counts one generation request (chat turn, studio batch, advisor message) for the user. */
  limitGeneration: (userId: string) => void;
};

const generationRule = { name: "generation-user", limit: 120, windowMs: 60_000 };

export function createRouteKit(accounts: AccountsContext, limiter: RateLimiter): RouteKit {
  return {
    auth: requireUser(accounts),
    security: [{ bearerAuth: [] }],
    limiter,
    limitGeneration: (userId) => limiter.hit(generationRule, userId),
  };
}
