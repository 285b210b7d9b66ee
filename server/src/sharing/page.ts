// The HTML of a shared story's page (/s/{token}): the web app's index.html with the app's CSP and a head
// that link previews read without running script: Open Graph title, description and picture, and noindex,
// and a preload of the first scene's page-sized picture (the largest paint), at high priority.
// Unknown and revoked links get a plain 404 page that says nothing about whether the link ever existed.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Locale } from "@storyverse/contract/accounts";
import { SHARED_PICTURE_SIZES, type SharedPicture } from "@storyverse/contract/sharing";
import type { FastifyReply } from "fastify";
import { localeFromAcceptLanguage } from "../http/accept-language";
import { appCspHeader } from "../http/security";

export type SharePageOptions = {
  /** The built web app (web/dist). */
  webDistDir: string;
  /** The S3 store's origin when media come from there, for the CSP. */
  mediaOrigin?: string;
};

export type PagePreview = {
  title: string;
  description: string;
  /** The link-preview picture (absolute URL and size), or null. */
  image: { url: string; width: number; height: number } | null;
  /** The first thing the page shows, when it is a picture: preloaded. */
  firstPicture?: SharedPicture | null;
  /** Absolute URL of the page. */
  url: string;
};

const escapeHtml = (text: string) =>
  text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");

function previewHead(preview: PagePreview): string {
  const tags = [
    '<meta name="robots" content="noindex, nofollow" />',
    `<title>${escapeHtml(preview.title)} · Storyverse</title>`,
    `<meta name="description" content="${escapeHtml(preview.description)}" />`,
    '<meta property="og:type" content="article" />',
    '<meta property="og:site_name" content="Storyverse" />',
    `<meta property="og:title" content="${escapeHtml(preview.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(preview.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(preview.url)}" />`,
    ...(preview.image
      ? [
          `<meta property="og:image" content="${escapeHtml(preview.image.url)}" />`,
          '<meta property="og:image:type" content="image/jpeg" />',
          `<meta property="og:image:width" content="${preview.image.width}" />`,
          `<meta property="og:image:height" content="${preview.image.height}" />`,
          `<meta name="twitter:image" content="${escapeHtml(preview.image.url)}" />`,
        ]
      : []),
    preview.firstPicture
      ? `<link rel="preload" as="image" href="${escapeHtml(preview.firstPicture.src)}" imagesrcset="${escapeHtml(preview.firstPicture.srcset)}" imagesizes="${SHARED_PICTURE_SIZES}" fetchpriority="high" />`
      : "",
    `<meta name="twitter:card" content="${preview.image ? "summary_large_image" : "summary"}" />`,
  ];
  return tags.filter(Boolean).join("\n    ");
}

const NOT_FOUND_WORDS: Record<Locale, { title: string; body: string }> = {
  en: { title: "Not found", body: "This shared story does not exist or is no longer shared." },
  de: {
    title: "Nicht gefunden",
    body: "Diese geteilte Geschichte gibt es nicht oder sie wird nicht mehr geteilt.",
  },
  es: { title: "No encontrada", body: "Esta historia compartida no existe o ya no se comparte." },
};

/** The 404 page in the reader's language (decision 0155): the app that would say it is not loaded here. */
function notFoundPage(locale: Locale): string {
  const words = NOT_FOUND_WORDS[locale];
  return `<!doctype html>
<html lang="${locale}">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${words.title} · Storyverse</title>
  </head>
  <body>
    <h1>${words.title}</h1>
    <p>${words.body}</p>
    <p><a href="/">Storyverse</a></p>
  </body>
</html>
`;
}

export function createSharePages(options: SharePageOptions) {
  const indexFile = path.join(options.webDistDir, "index.html");
  const indexHtml = existsSync(indexFile) ? readFileSync(indexFile, "utf8") : null;

  // Shared pages are private to whoever holds the link: never cached by proxies, never indexed, and the
  // token never leaves in a Referer header.
  const privateHeaders = (reply: FastifyReply, nonce: string) =>
    reply
      .header("cache-control", "no-store")
      .header("x-robots-tag", "noindex, nofollow")
      .header("referrer-policy", "no-referrer")
      .header("content-security-policy", appCspHeader(nonce, options.mediaOrigin))
      .type("text/html; charset=utf-8");

  return {
    story(reply: FastifyReply, preview: PagePreview) {
      if (indexHtml === null) {
        return reply
          .code(503)
          .type("text/plain")
          .send("The web app is not built yet. Run `npm run build`, then reload.");
      }
      const nonce = randomBytes(16).toString("base64");
      const html = indexHtml
        .replaceAll("__CSP_NONCE__", nonce)
        .replace(/<title>[^<]*<\/title>/, "")
        .replace(/<meta name="description"[^>]*>/, "")
        .replace("</head>", `  ${previewHead(preview)}\n  </head>`);
      return privateHeaders(reply, nonce).send(html);
    },
    notFound(reply: FastifyReply, acceptLanguage?: string) {
      return privateHeaders(reply.code(404), randomBytes(16).toString("base64")).send(
        notFoundPage(localeFromAcceptLanguage(acceptLanguage)),
      );
    },
  };
}
