// Bearer-token authentication: an onRequest hook (so it runs before the body is read or validated) that
// resolves the session to a user, or answers 401.
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { type AccountsContext, type AuthenticatedUser, authenticate } from "../accounts/sessions";
import { NotAuthenticated } from "../platform/errors";

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

export function requireUser(ctx: AccountsContext): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) throw new NotAuthenticated("Not authenticated. Please log in.");
    const user = await authenticate(ctx, token);
    if (!user) throw new NotAuthenticated("Your session has expired. Please log in again.");
    request.user = user;
  };
}

/** The user the requireUser hook put on the request. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new NotAuthenticated();
  return request.user;
}
