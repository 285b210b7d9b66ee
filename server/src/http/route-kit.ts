// What the HTTP layer adds to the services' context, built once per app and handed to every route module:
// the auth hook, the OpenAPI security marker, the rate limiter and the per-user generation limit, the
// accounts context the auth hook reads sessions through, the health probe's database ping and the check
// for locally served media links.
import type { onRequestAsyncHookHandler } from "fastify";
import { type AccountsContext, sessionIsLive } from "../accounts/sessions";
import type { MediaLinkVerifier } from "../media/storage/signing";
import type { RateLimiter } from "../platform/rate-limit";
import { requireUser } from "./auth";

export type RouteKit = {
  auth: onRequestAsyncHookHandler;
  security: { bearerAuth: string[] }[];
  limiter: RateLimiter;
  /** Counts one generation request (chat turn, studio batch, advisor message) for the user. */
  limitGeneration: (userId: string) => Promise<void>;
  /** The accounts service's context in the HTTP app: the shared context plus the session cache. */
  accounts: AccountsContext;
  /** Whether the session with this token hash is still signed in (read from the database, not the cache). */
  sessionIsLive: (tokenHash: string) => Promise<boolean>;
  /** One database round trip; throws when the database is unreachable. */
  pingDatabase: () => Promise<void>;
  mediaLinks: MediaLinkVerifier;
  /** Whether the process is shutting down (readiness then fails, so a balancer stops sending requests). */
  lifecycle: Lifecycle;
  /** The Redis connection's state for readiness's details; absent without REDIS_URL. */
  redisState?: (() => "ok" | "lost") | undefined;
};

/** Set by the process when it starts to stop; read by the readiness probe. */
export type Lifecycle = { draining: boolean };

const generationRule = { name: "generation-user", limit: 120, windowMs: 60_000 };

export function createRouteKit(parts: {
  accounts: AccountsContext;
  limiter: RateLimiter;
  pingDatabase: () => Promise<void>;
  mediaLinks: MediaLinkVerifier;
  lifecycle: Lifecycle;
  redisState?: (() => "ok" | "lost") | undefined;
}): RouteKit {
  const { accounts, limiter } = parts;
  return {
    ...parts,
    auth: requireUser(accounts),
    sessionIsLive: (tokenHash) => sessionIsLive(accounts, tokenHash),
    security: [{ bearerAuth: [] }],
    limitGeneration: (userId) => limiter.hit(generationRule, userId),
  };
}
