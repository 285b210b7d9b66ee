// The one shape of a route module: a Fastify plugin over the Zod type provider (so schemas type the
// handlers), registered from app.ts with `{ ctx, kit }`: the services' context and the HTTP kit. A module
// that needs less may declare a narrower Pick of either, so a test can build it on a bare Fastify instance.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginOptions, RawServerDefault } from "fastify";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../context";
import type { RouteKit } from "./route-kit";

export type TypedApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type RouteModuleOptions = { ctx: AppContext; kit: RouteKit };

/** Either part may be narrowed (a Pick, or a module's own context built on AppContext). */
type RouteModuleShape = FastifyPluginOptions & { ctx?: object; kit?: object };

export type RouteModule<Options extends RouteModuleShape = RouteModuleOptions> =
  FastifyPluginAsyncZod<Options>;
