// POST /api/newsletter: the landing page's email capture box.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  newsletterSignupRequestSchema,
  newsletterSignupResponseSchema,
} from "@storyverse/contract/newsletter";
import type { RouteModule } from "../http/route-module";
import { newsletterPerAddress, subscribe } from "./service";

export const newsletterRoutes: RouteModule = async (app, { ctx, kit }) => {
  app.post(
    "/api/newsletter",
    {
      config: { public: true },
      schema: {
        tags: ["newsletter"],
        summary: "Leave an email address for product news",
        body: newsletterSignupRequestSchema,
        response: { 201: newsletterSignupResponseSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (request, reply) => {
      await kit.limiter.hit(newsletterPerAddress, request.ip);
      const { message } = await subscribe(ctx.db, request.body.email);
      return reply.code(201).send({ subscribed: true as const, message });
    },
  );
};
