// HTTP for a story's lore settings (GET and PUT /api/stories/{id}/lore-settings): the Story Cards' share of
// the narrator's budget, the scan depth and the narrator instructions. Free; owner only (others: 404).
// Registered by the stories' route module.
import {
  storyLoreSettingsResponseSchema,
  storyLoreSettingsUpdateSchema,
} from "@storyverse/contract/story-craft";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { loreSettings, updateLoreSettings } from "./lore-settings";

const tags = ["stories"];

export const loreSettingsRoutes: RouteModule = async (app, { ctx }) => {
  app.get(
    "/api/stories/:id/lore-settings",
    {
      schema: {
        tags,
        summary: "The story's lore settings, narrator instructions and (read-only) creator's notes",
        params: storyParams,
        response: { 200: storyLoreSettingsResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await loreSettings(ctx, currentUser(request).id, scopedStory(request).id)),
    }),
  );

  app.put(
    "/api/stories/:id/lore-settings",
    {
      schema: {
        tags,
        summary: "Change the lore budget, scan depth or narrator instructions (the fields sent)",
        params: storyParams,
        body: storyLoreSettingsUpdateSchema,
        response: { 200: storyLoreSettingsResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await updateLoreSettings(ctx, currentUser(request).id, scopedStory(request).id, request.body)),
    }),
  );
};
