// POST /api/newsletter: the landing page's email capture box.
import { errorBodySchema } from "@storyverse/contract/errors";
import {
  newsletterSignupRequestSchema,
  newsletterSignupResponseSchema,
} from "@storyverse/contract/newsletter";
import type { AppDeps, TypedApp } from "../app";
import { subscribe } from "./service";

export function registerNewsletterRoutes(app: TypedApp, deps: AppDeps): void {
  app.post(
    "/api/newsletter",
    {
      schema: {
        tags: ["newsletter"],
        summary: "Leave an email address for product news",
        body: newsletterSignupRequestSchema,
        response: { 201: newsletterSignupResponseSchema, 400: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { message } = await subscribe(deps.database.db, request.body.email);
      return reply.code(201).send({ subscribed: true as const, message });
    },
  );
}
