// One HTTP edge for every API route: a route under /api needs a signed-in user unless it says
// `config: { public: true }`. The auth hook, the OpenAPI security marker and the answers every route can give
// (401 for a missing or ended session; 400 for input that fails its schema; 404 for a path naming nothing the
// caller owns; 500; 503 when the database is busy) are added here, once, as each route is registered, instead
// of by each route. A route declares only the answers of its own (409, 413, 429, 502...).
import { paidWorkTooManySchema } from "@storyverse/contract/admin";
import { errorBodySchema } from "@storyverse/contract/errors";
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route answers without a session (sign-in, health, a share link, the payment provider's webhook). */
    public?: boolean;
  }
}

/** The error statuses any route taking input gives: 400 for input failing its schema, 404 for a path's ids. */
export function inputErrorStatuses(schema: {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  consumes?: unknown;
}): number[] {
  const statuses: number[] = [];
  if (schema.body || schema.querystring || schema.params || schema.consumes) statuses.push(400);
  if (schema.params) statuses.push(404);
  return statuses;
}

export function installSecureByDefault(
  app: FastifyInstance,
  kit: { auth: onRequestAsyncHookHandler; security: { bearerAuth: string[] }[] },
): void {
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url.startsWith("/api/docs")) return;
    const schema = route.schema ?? {};
    const response = { ...((schema.response ?? {}) as Record<string, unknown>) };
    // A call that charges credits (it can answer 402) can also meet a spending cap: its 429 carries the cap.
    if (response[402]) response[429] = paidWorkTooManySchema;
    const shared: Record<number, unknown> = { 500: errorBodySchema, 503: errorBodySchema };
    for (const status of inputErrorStatuses(schema)) shared[status] = errorBodySchema;
    if (route.config?.public) {
      route.schema = { ...schema, response: { ...shared, ...response } };
      return;
    }
    const hooks = route.onRequest ? [route.onRequest].flat() : [];
    if (!hooks.includes(kit.auth)) route.onRequest = [kit.auth, ...hooks];
    route.schema = {
      ...schema,
      security: kit.security,
      response: { 401: errorBodySchema, ...shared, ...response },
    };
  });
}
