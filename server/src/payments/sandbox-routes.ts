// The sandbox's pages, in their own encapsulated scope: HTML answers (errors included, since a person reads
// them), and a form-body parser so the Pay and Cancel forms can post. No bearer token here (a browser
// navigation carries none): the unguessable session id, or a signed portal link, is the capability.
// Every route answers 404 unless the sandbox is the provider and APP_ENV is not production.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { FastifyError } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { asHttpError } from "../http/errors";
import type { RouteModule } from "../http/route-module";
import { NotFound } from "../platform/errors";
import {
  renderCheckoutPage,
  renderErrorPage,
  renderPortalPage,
  SANDBOX_CSS_PATH,
  type SandboxFonts,
  sandboxCss,
} from "./sandbox-page";
import { readPortalToken } from "./sandbox-provider";
import * as payments from "./service";

const sessionParams = z.object({
  sessionId: z.string().regex(/^cs_[A-Za-z0-9_]{1,200}$/, "Unknown checkout"),
});
const portalParams = z.object({ token: z.string().max(300) });
const html = "text/html; charset=utf-8";

/** The app's Inter files in the web build (their names carry a content hash), served from /assets. */
function appFonts(webDistDir: string): SandboxFonts {
  let files: string[] = [];
  try {
    files = readdirSync(path.join(webDistDir, "assets"));
  } catch {
    // No web build (API-only tests): the stack's fallbacks apply.
  }
  const find = (prefix: string) => {
    const name = files.find((file) => file.startsWith(prefix) && file.endsWith(".woff2"));
    return name ? `/assets/${name}` : null;
  };
  return { latin: find("inter-latin-wght-normal-"), latinExt: find("inter-latin-ext-wght-normal-") };
}

export const sandboxRoutes: RouteModule<{ ctx: payments.PaymentsContext; webDistDir: string }> = async (
  app,
  { ctx, webDistDir },
) => {
  const css = sandboxCss(appFonts(webDistDir));
  app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    // The forms carry no fields we read; the parser only lets their posts in.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 4096 },
      (_request, _body, done) => done(null, {}),
    );
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      const known = asHttpError(error);
      const status = known ? known.statusCode : error.validation ? 404 : (error.statusCode ?? 500);
      if (status >= 500) request.log.error({ err: error }, "sandbox page failed");
      const detail = known
        ? known.detail
        : status === 404
          ? "This checkout does not exist."
          : "Something went wrong.";
      return reply
        .code(status)
        .type(html)
        .header("cache-control", "no-store")
        .send(renderErrorPage(status, detail));
    });

    scope.get(SANDBOX_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply.type("text/css; charset=utf-8").header("cache-control", "no-cache").send(css),
    );

    scope.get(
      "/sandbox/checkout/:sessionId",
      { schema: { hide: true, params: sessionParams } },
      async (request, reply) => {
        const { session, pack } = await payments.sandboxCheckout(ctx, request.params.sessionId);
        const urls = payments.returnUrls(ctx.config);
        return reply
          .type(html)
          .header("cache-control", "no-store")
          .send(
            renderCheckoutPage({
              session,
              pack,
              successUrl: urls.success.replace("{CHECKOUT_SESSION_ID}", session.id),
              cancelUrl: urls.cancel,
            }),
          );
      },
    );

    // 303: the browser follows with a GET, exactly like Stripe's return to success_url / cancel_url.
    scope.post(
      "/sandbox/checkout/:sessionId/pay",
      { schema: { hide: true, params: sessionParams } },
      async (request, reply) => reply.redirect(await payments.paySandbox(ctx, request.params.sessionId), 303),
    );

    scope.post(
      "/sandbox/checkout/:sessionId/cancel",
      { schema: { hide: true, params: sessionParams } },
      async (request, reply) =>
        reply.redirect(await payments.cancelSandbox(ctx, request.params.sessionId), 303),
    );

    scope.get(
      "/sandbox/portal/:token",
      { schema: { hide: true, params: portalParams } },
      async (request, reply) => {
        const userId = readPortalToken(ctx, request.params.token);
        if (!userId) throw new NotFound("This billing link has expired. Open Manage Billing again.");
        const portal = await payments.sandboxPortal(ctx, userId);
        return reply.type(html).header("cache-control", "no-store").send(renderPortalPage(portal));
      },
    );
  });
};
