// The OpenAPI document, generated from the contract's zod schemas, and Swagger UI at /api/docs.
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { docsContentSecurityPolicy } from "./security";

export async function installApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "Storyverse API",
        description:
          "AI storytelling and media creation. Authenticated calls carry `Authorization: Bearer <token>`.",
        version: "1.0.0",
      },
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    transformStaticCSP: () => docsContentSecurityPolicy,
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
}
