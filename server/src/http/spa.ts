// Serves the built web app on the API's port: hashed assets cached for a year, index.html for every
// non-API path so the SPA can route (including /verify-email?token=...). Unknown /api paths stay JSON 404s.
import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

export async function installSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, "index.html");
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: true,
      index: "index.html",
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    if (pathname === "/api" || pathname.startsWith("/api/") || request.method !== "GET") {
      return reply.code(404).send({ detail: `No API route ${request.method} ${pathname}` });
    }
    if (!hasBuild) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web app is not built yet. Run `npm run build`, then reload.");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html");
  });
}
