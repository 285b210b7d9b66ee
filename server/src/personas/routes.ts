// HTTP for personas (decision 0152): list, create, change and delete the player's personas. Free; a persona is
// its owner's only (anyone else's id answers 404, as an unknown one). At most PERSONAS_MAX an account, so the
// list is answered whole.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  createPersonaRequestSchema,
  deletePersonaResponseSchema,
  PERSONA_NOT_FOUND_DETAIL,
  PERSONAS_MAX,
  personaResponseSchema,
  personasResponseSchema,
  updatePersonaRequestSchema,
} from "@storyverse/contract/personas";
import { z } from "zod";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { createPersona, deletePersona, personaList, type StoriesPlayedAs, updatePersona } from "./service";

const tags = ["personas"];
const personaParams = z.object({ id: z.uuid(PERSONA_NOT_FOUND_DETAIL) });

/** `storiesReset`: the stories module's forgetting of a deleted persona's stories (composed in app.ts). */
export const personaRoutes: RouteModule<RouteModuleOptions & { storiesReset: StoriesPlayedAs }> = async (
  app,
  { ctx, storiesReset },
) => {
  app.get(
    "/api/personas",
    {
      schema: {
        tags,
        summary: `Your personas, oldest first (at most ${PERSONAS_MAX}, never paged)`,
        response: { 200: personasResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      personas: await personaList(ctx, currentUser(request).id),
      max: PERSONAS_MAX,
    }),
  );

  app.post(
    "/api/personas",
    {
      schema: {
        tags,
        summary: `Add a persona (at most ${PERSONAS_MAX}; is_default makes it the one stories without a choice use)`,
        body: createPersonaRequestSchema,
        response: { 200: personaResponseSchema, 400: errorBodySchema, 401: errorBodySchema },
      },
    },
    async (request) => ({
      success: true as const,
      persona: await createPersona(ctx, currentUser(request).id, request.body),
    }),
  );

  app.put(
    "/api/personas/:id",
    {
      schema: {
        tags,
        summary: "Change a persona (the fields sent; portrait_item_id or voice null removes it)",
        params: personaParams,
        body: updatePersonaRequestSchema,
        response: {
          200: personaResponseSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          404: errorBodySchema,
        },
      },
    },
    async (request) => ({
      success: true as const,
      persona: await updatePersona(ctx, currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    "/api/personas/:id",
    {
      schema: {
        tags,
        summary: "Delete a persona; stories played as it use your default persona from their next turn",
        params: personaParams,
        response: { 200: deletePersonaResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      await deletePersona(ctx, currentUser(request).id, request.params.id, storiesReset);
      return { success: true as const };
    },
  );
};
