// HTTP for a story's generation settings (GET and PUT /api/stories/{id}/settings) and the text models the
// configured provider offers (GET /api/models). Free; a story's settings are its owner's only (others: 404).
// Registered by the stories' route module.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  generationSettingsResponseSchema,
  generationSettingsUpdateSchema,
  textModelsResponseSchema,
} from "@storyverse/contract/generation-settings";
import { currentUser } from "../http/auth";
import { storyParams } from "../http/params";
import type { RouteModule } from "../http/route-module";
import { scopedStory } from "../http/story-scope";
import { generationSettings, textModels, updateGenerationSettings } from "./settings";

const tags = ["stories"];

export const generationSettingsRoutes: RouteModule = async (app, { ctx }) => {
  app.get(
    "/api/stories/:id/settings",
    {
      schema: {
        tags,
        summary:
          "The story's generation settings: output length, randomness, text model, Author's Note depth, art style, aspect ratio, input mode",
        params: storyParams,
        response: { 200: generationSettingsResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await generationSettings(ctx, currentUser(request).id, scopedStory(request).id)),
    }),
  );

  app.put(
    "/api/stories/:id/settings",
    {
      schema: {
        tags,
        summary:
          "Change the story's generation settings (the fields sent); a model must be one GET /api/models lists",
        params: storyParams,
        body: generationSettingsUpdateSchema,
        response: { 200: generationSettingsResponseSchema, 502: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await updateGenerationSettings(
        ctx,
        currentUser(request).id,
        scopedStory(request).id,
        request.body,
      )),
    }),
  );

  app.get(
    "/api/models",
    {
      schema: {
        tags,
        summary: "The text models the configured text provider offers (its default first; kept a minute)",
        response: { 200: textModelsResponseSchema, 401: errorBodySchema, 502: errorBodySchema },
      },
    },
    async () => {
      const offered = await textModels(ctx);
      return {
        success: true as const,
        provider: offered.provider,
        default_model: offered.default_model,
        models: offered.models.map((id) => ({ id })),
      };
    },
  );
};
