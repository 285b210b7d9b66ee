// HTTP for a story's branches and checkpoints (issue #28, decision 0114): list, branch from an exchange,
// rename, delete, choose the branch the story shows, and name an exchange as a checkpoint. Owner only (others:
// 404). The {id} is resolved to the branch being viewed (or ?branch=) by branch-scope.ts before these run.
import {
  branchesResponseSchema,
  branchQuerySchema,
  branchResponseSchema,
  checkpointRequestSchema,
  checkpointResponseSchema,
  createBranchRequestSchema,
  renameBranchRequestSchema,
  viewBranchRequestSchema,
  viewBranchResponseSchema,
} from "@storyverse/contract/branches";
import { errorBodySchema } from "@storyverse/contract/errors";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { storyMessageParams, storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import {
  BRANCH_NOT_FOUND,
  createBranch,
  deleteBranch,
  listBranches,
  renameBranch,
  setCheckpoint,
  viewBranch,
} from "./branches";

const tags = ["stories"];
const branchParams = storyParams.extend({ branch_id: z.uuid(BRANCH_NOT_FOUND) });
// Each branch copies its history: generous for a player, a stop for a loop.
const branchRule = { name: "branch-user", limit: 120, windowMs: 60_000 };

export const branchRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.get(
    "/api/stories/:id/branches",
    {
      schema: {
        tags,
        summary: "The story's branches (turns, last activity, newest scene, fork point, checkpoints)",
        params: storyParams,
        querystring: branchQuerySchema,
        response: { 200: branchesResponseSchema },
      },
    },
    async (request) => listBranches(ctx, currentUser(request).id, scopedStory(request).id),
  );

  app.post(
    "/api/stories/:id/branches",
    {
      schema: {
        tags,
        summary: "Branch from an exchange of the branch being viewed; the story then shows the new branch",
        params: storyParams,
        querystring: branchQuerySchema,
        body: createBranchRequestSchema,
        response: { 201: branchResponseSchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      await kit.limiter.hit(branchRule, userId);
      const branch = await createBranch(ctx, userId, scopedStory(request).id, {
        fromMessageId: request.body.from_message_id,
        ...(request.body.name ? { name: request.body.name } : {}),
      });
      return reply.code(201).send({ success: true as const, branch });
    },
  );

  app.patch(
    "/api/stories/:id/branches/:branch_id",
    {
      schema: {
        tags,
        summary: "Rename a branch",
        params: branchParams,
        body: renameBranchRequestSchema,
        response: { 200: branchResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      branch: await renameBranch(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.branch_id,
        request.body.name,
      ),
    }),
  );

  app.delete(
    "/api/stories/:id/branches/:branch_id",
    {
      schema: {
        tags,
        summary: "Delete a branch (never another branch's turns; its media stay in the gallery)",
        params: branchParams,
        response: { 204: z.null(), 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      await deleteBranch(ctx, currentUser(request).id, scopedStory(request).id, request.params.branch_id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    "/api/stories/:id/branch",
    {
      schema: {
        tags,
        summary: "Choose the branch the story shows (the story's calls then act on it)",
        params: storyParams,
        body: viewBranchRequestSchema,
        response: { 200: viewBranchResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      current_branch_id: await viewBranch(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.body.branch_id,
      ),
    }),
  );

  app.put(
    "/api/stories/:id/checkpoints/:message_id",
    {
      schema: {
        tags,
        summary: "Name an exchange of the branch as a checkpoint (null clears the name)",
        params: storyMessageParams,
        querystring: branchQuerySchema,
        body: checkpointRequestSchema,
        response: { 200: checkpointResponseSchema },
      },
    },
    async (request) => {
      const { message_id: messageId } = request.params;
      const { id } = scopedStory(request);
      await setCheckpoint(ctx, currentUser(request).id, id, messageId, request.body.name);
      return { success: true as const, message_id: messageId, name: request.body.name };
    },
  );
};
