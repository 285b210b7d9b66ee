// HTTP for living lore and the camera (issue #29, decision 0112): the draft cards the narration brought up
// (GET /api/stories/{id}/lore-suggestions, POST .../{sid}/accept and .../{sid}/dismiss) and the story's scene
// state (GET/PUT /api/stories/{id}/scene-state). Free; owner only (others: 404). Registered by the stories'
// route module.
import { sceneStateResponseSchema, sceneStateUpdateSchema } from "@storyverse/contract/camera";
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  acceptSuggestionRequestSchema,
  acceptSuggestionResponseSchema,
  dismissSuggestionResponseSchema,
  loreSuggestionsResponseSchema,
} from "@storyverse/contract/lore";
import { z } from "zod";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import {
  acceptSuggestion,
  changeSceneState,
  dismissSuggestion,
  loreSuggestions,
  sceneState,
} from "./living-lore";

const tags = ["stories"];
const suggestionParams = storyParams.extend({ sid: z.string().max(100) });

export const livingLoreRoutes: RouteModule = async (app, { ctx }) => {
  app.get(
    "/api/stories/:id/lore-suggestions",
    {
      schema: {
        tags,
        summary: "Draft Story Cards for the names the narration brought up that have no card yet",
        params: storyParams,
        response: { 200: loreSuggestionsResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      suggestions: await loreSuggestions(ctx, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.post(
    "/api/stories/:id/lore-suggestions/:sid/accept",
    {
      schema: {
        tags,
        summary: "Make a draft a Story Card; the body may change its name, kind, triggers or description",
        params: suggestionParams,
        body: acceptSuggestionRequestSchema,
        response: { 200: acceptSuggestionResponseSchema, 409: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      card: await acceptSuggestion(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.params.sid,
        request.body,
      ),
    }),
  );

  app.post(
    "/api/stories/:id/lore-suggestions/:sid/dismiss",
    {
      schema: {
        tags,
        summary: "Dismiss a draft: its name is never offered again in this story",
        params: suggestionParams,
        response: { 200: dismissSuggestionResponseSchema, 409: errorBodySchema },
      },
    },
    async (request) => {
      await dismissSuggestion(ctx, currentUser(request).id, scopedStory(request).id, request.params.sid);
      return { success: true as const };
    },
  );

  app.get(
    "/api/stories/:id/scene-state",
    {
      schema: {
        tags,
        summary: "Where the story's scene is, its time of day and weather, as every picture keeps them",
        params: storyParams,
        response: { 200: sceneStateResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      scene_state: await sceneState(ctx, currentUser(request).id, scopedStory(request).id),
    }),
  );

  app.put(
    "/api/stories/:id/scene-state",
    {
      schema: {
        tags,
        summary: 'Correct the scene state by hand (the fields sent; "" clears one)',
        params: storyParams,
        body: sceneStateUpdateSchema,
        response: { 200: sceneStateResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      scene_state: await changeSceneState(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.body,
      ),
    }),
  );
};
