// The ownership check and the branch of every story call (decision 0114), decided once for every route under
// /api/stories/{id}: a story that is not the caller's is a 404 before any handler runs; the story's id stands
// for the branch being viewed, `?branch=` names another of its branches, and a branch's own id names that
// branch. The scope puts the branch on the request (`request.story`, read by `scopedStory` of
// http/story-scope.ts); the URL's params stay as sent. The routes and services below then see one story row,
// the branch, and need not know about branches at all.
import { branchQuerySchema } from "@storyverse/contract/branches";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../context";
import type { ScopedStory } from "../http/story-scope";
import { InvalidInput } from "../platform/errors";
import { resolveBranch } from "./branches";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function installBranchScope(app: FastifyInstance, ctx: Pick<AppContext, "db">): void {
  app.decorateRequest("story", null);
  // Every story call takes `?branch=`: said once here, so the OpenAPI document lists it on each.
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/stories/:id")) return;
    const query = route.schema?.querystring;
    if (query === undefined) route.schema = { ...route.schema, querystring: branchQuerySchema };
    else if (query instanceof z.ZodObject) {
      route.schema = { ...route.schema, querystring: query.extend(branchQuerySchema.shape) };
    }
  });
  app.addHook("preHandler", async (request) => {
    if (!request.routeOptions.url?.startsWith("/api/stories/:id") || !request.user) return;
    const params = request.params as { id?: string };
    if (!params.id) return;
    // Validated by the route's query schema (extended above); checked again for a route whose schema is not zod.
    const branch = (request.query as { branch?: unknown } | undefined)?.branch;
    const requested = typeof branch === "string" ? branch : null;
    if (requested !== null && !UUID.test(requested)) throw new InvalidInput("branch must be a branch id");
    const story: ScopedStory = { id: await resolveBranch(ctx, request.user.id, params.id, requested) };
    request.story = story;
  });
}
