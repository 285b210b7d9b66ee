// Which branch a story call acts on (decision 0114), decided once for every route under /api/stories/{id}:
// the story's id stands for the branch being viewed, `?branch=` names another of its branches, and a branch's
// own id names that branch. The routes and services below then see one story row, the branch, and need not
// know about branches at all.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context";
import { InvalidInput } from "../platform/errors";
import { resolveBranch } from "./branches";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function installBranchScope(app: FastifyInstance, ctx: Pick<AppContext, "db">): void {
  app.addHook("preHandler", async (request) => {
    if (!request.routeOptions.url?.startsWith("/api/stories/:id") || !request.user) return;
    const params = request.params as { id?: string };
    if (!params.id) return;
    const requested = new URL(request.url, "http://localhost").searchParams.get("branch");
    if (requested !== null && !UUID.test(requested)) throw new InvalidInput("branch must be a branch id");
    params.id = await resolveBranch(ctx, request.user.id, params.id, requested);
  });
}
