// Serves the built web app on the API's port: hashed assets cached for a year, index.html for every
// non-API path so the SPA can route (including /verify-email?token=...). Unknown /api paths stay JSON 404s.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { errorBody } from "./errors";
import { appCspHeader } from "./security";

export async function installSpa(
  app: FastifyInstance,
  webDistDir: string,
  mediaOrigin?: string,
): Promise<void> {
  const indexFile = path.join(webDistDir, "index.html");
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: true,
      // index.html is answered below, with a fresh CSP nonce each time.
      index: false,
      // The build writes .br and .gz beside each asset (scripts/compress-dist.mjs).
      preCompressed: true,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }

  const indexHtml = hasBuild ? readFileSync(indexFile, "utf8") : "";
  const sendIndex = (reply: FastifyReply) => {
    const nonce = randomBytes(16).toString("base64");
    return reply
      .header("cache-control", "no-cache")
      .header("content-security-policy", appCspHeader(nonce, mediaOrigin))
      .type("text/html; charset=utf-8")
      .send(indexHtml.replaceAll("__CSP_NONCE__", nonce));
  };
  if (hasBuild) {
    app.get("/", { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
    app.get("/index.html", { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    // HEAD is asked the same question as GET (link checkers, uptime probes, curl -I).
    const readsPage = request.method === "GET" || request.method === "HEAD";
    if (pathname === "/api" || pathname.startsWith("/api/") || !readsPage) {
      return reply.code(404).send(errorBody(404, `No API route ${request.method} ${pathname}`));
    }
    if (!hasBuild) {
      return reply
        .code(503)
        .type("text/plain")
        .send("The web app is not built yet. Run `npm run build`, then reload.");
    }
    return sendIndex(reply);
  });
}
