// Bearer-token authentication: a preHandler that resolves the session to a user, or answers 401.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { type AccountsContext, type AuthenticatedUser, authenticate } from "../accounts/service";
import { Unauthorized } from "./errors";

declare module "fastify" {
  interface FastifyRequest {
    user: AuthenticatedUser | null;
  }
}

export function installAuth(app: FastifyInstance): void {
  app.decorateRequest("user", null);
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

export function requireUser(ctx: AccountsContext): preHandlerAsyncHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized("Not authenticated. Please log in.");
    const user = await authenticate(ctx, token);
    if (!user) throw new Unauthorized("Your session has expired. Please log in again.");
    request.user = user;
  };
}

/** The user a requireUser preHandler put on the request. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new Unauthorized();
  return request.user;
}
