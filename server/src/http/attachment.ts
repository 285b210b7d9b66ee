// A download's headers, shared by every route that answers a file (book exports, card and lore exports, story
// backups): the file name as an ASCII fallback plus the UTF-8 name, and never cached.
import type { FastifyReply } from "fastify";

/** Any half of a surrogate pair standing alone: not text, and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The Content-Disposition of a download named `name` (from a title: whatever it holds, never a throw). */
export function attachmentDisposition(name: string): string {
  const filename = name.replace(LONE_SURROGATE, "\uFFFD");
  return `attachment; filename="${filename.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** The reply as a download of `name`, never cached; the caller sends the body. */
export function asAttachment(reply: FastifyReply, name: string, contentType: string): FastifyReply {
  return reply
    .header("content-type", contentType)
    .header("content-disposition", attachmentDisposition(name))
    .header("cache-control", "no-store");
}
