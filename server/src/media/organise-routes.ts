// HTTP for organising the Gallery (issue 45 item 5, decision 0141): boards, favourites, an item's details and a
// selection downloaded as one zip. Registered by the gallery routes, which also delete items.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  boardResponseSchema,
  boardsResponseSchema,
  createBoardSchema,
  mediaDetailsSchema,
  mediaItemResponseSchema,
  mediaZipSchema,
  updateBoardSchema,
  updateMediaSchema,
} from "@storyverse/contract/gallery";
import { z } from "zod";
import { asAttachment } from "../http/attachment";
import { currentUser } from "../http/auth";
import type { RouteModule, RouteModuleOptions } from "../http/route-module";
import { boardsOf, createBoard, mediaDetails, removeBoard, updateBoard, updateMedia } from "./organise";
import { galleryZip } from "./zip";

const tags = ["media"];
/** A zip reads up to 100 originals from storage: ten a minute per player is plenty for a person. */
const zipRule = { name: "media-zip-user", limit: 10, windowMs: 60_000 };
const boardParams = z.object({ id: z.uuid("This board is not one of yours.") });
const itemParams = z.object({ id: z.uuid("This item is not in your Gallery.") });

export const organiseRoutes: RouteModule<RouteModuleOptions> = async (app, { ctx, kit }) => {
  app.get(
    "/api/boards",
    {
      schema: {
        tags,
        summary: "Your Gallery boards, by name, each with how many items it holds and a small cover",
        response: { 200: boardsResponseSchema },
      },
    },
    async (request) => ({ boards: await boardsOf(ctx, currentUser(request).id) }),
  );

  app.post(
    "/api/boards",
    {
      schema: {
        tags,
        summary: "Make a board (names are unique per player, ignoring case; at most 100 boards)",
        body: createBoardSchema,
        response: { 201: boardResponseSchema, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const board = await createBoard(ctx, currentUser(request).id, request.body.name);
      return reply.code(201).send({ board });
    },
  );

  app.put(
    "/api/boards/:id",
    {
      schema: {
        tags,
        summary:
          "Rename a board and/or put items on it or take them off (an item stays on its other boards and in the Gallery)",
        params: boardParams,
        body: updateBoardSchema,
        response: { 200: boardResponseSchema, 409: errorBodySchema },
      },
    },
    async (request) => ({
      board: await updateBoard(ctx, currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.delete(
    "/api/boards/:id",
    {
      schema: {
        tags,
        summary: "Delete a board; its items stay in the Gallery",
        params: boardParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeBoard(ctx, currentUser(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/api/media/:id/details",
    {
      schema: {
        tags,
        summary:
          "One gallery item's details: prompt, size, boards, the pictures it was made from and the clips made from it",
        params: itemParams,
        response: { 200: mediaDetailsSchema },
      },
    },
    async (request) => mediaDetails(ctx, currentUser(request).id, request.params.id),
  );

  app.put(
    "/api/media/:id",
    {
      schema: {
        tags,
        summary: "Mark a gallery item a favourite (or not) and/or set every board that holds it",
        params: itemParams,
        body: updateMediaSchema,
        response: { 200: mediaItemResponseSchema },
      },
    },
    async (request) => ({
      item: await updateMedia(ctx, currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.post(
    "/api/media/zip",
    {
      schema: {
        tags,
        summary:
          "Download up to 100 gallery items' originals as one zip, streamed; all must be yours (404); 10 a minute",
        body: mediaZipSchema,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await kit.limiter.hit(zipRule, user.id);
      const file = await galleryZip(ctx, user.id, request.body.ids);
      return asAttachment(reply, file.filename, "application/zip").send(file.stream);
    },
  );
};
