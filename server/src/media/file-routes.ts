// GET /api/media/*: local media behind signed, expiring links (storage/signing.ts), with byte ranges so
// videos can seek. S3 media never pass through here; their presigned URLs point at the bucket.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { z } from "zod";
import type { AppContext } from "../context";
import { HttpError } from "../http/errors";
import type { RouteKit } from "../http/route-kit";
import type { RouteModule } from "../http/route-module";
import { Forbidden, NotFound } from "../platform/errors";
import { contentTypeForKey, isValidMediaKey } from "./storage/keys";
import { isMissingFile, LocalMediaStorage, MEDIA_ROUTE_PREFIX } from "./storage/local";
import { MeteredStorage } from "./storage/metered";
import { parseExpiry } from "./storage/signing";

export const INVALID_LINK_DETAIL = "This media link has expired or is invalid.";

/** Inclusive byte positions, as in Content-Range. */
export type ByteRange = { start: number; end: number };

/**
 * One `bytes=` range against a file of `size` bytes. undefined means "serve the whole file": no header, or
 * one we may ignore (malformed, or several ranges, which browsers do not send for media).
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | undefined {
  const match = header?.trim().match(/^bytes=\s*(\d*)\s*-\s*(\d*)$/);
  if (!match) return undefined;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return undefined;
  if (first === "") {
    // Suffix range: the last N bytes.
    const length = Number(last);
    if (length === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end };
}

const querySchema = z.object({
  // Anything odd (repeated parameters give arrays) is treated as a bad link, not a validation error.
  exp: z.string().optional().catch(undefined),
  sig: z.string().optional().catch(undefined),
});

/** Registers the route for the local store; with S3 it adds nothing and /api/media/* stays a JSON 404. */
export const mediaFileRoutes: RouteModule<{
  ctx: Pick<AppContext, "storage">;
  kit: Pick<RouteKit, "mediaLinks">;
}> = async (app, { ctx, kit: { mediaLinks: verifier } }) => {
  // The app's store counts each account's objects (metered.ts); the files are its inner store's.
  const storage = ctx.storage instanceof MeteredStorage ? ctx.storage.inner : ctx.storage;
  if (!(storage instanceof LocalMediaStorage)) return;

  app.get(
    `${MEDIA_ROUTE_PREFIX}*`,
    {
      // A signed link is its own permission: an <img> or <video> sends no session.
      config: { public: true },
      schema: { params: z.object({ "*": z.string() }), querystring: querySchema },
    },
    async (request, reply) => {
      const key = request.params["*"];
      const exp = parseExpiry(request.query.exp);
      const now = verifier.clock.now();
      if (!isValidMediaKey(key) || !verifier.signer.verify(key, exp, request.query.sig ?? "", now)) {
        throw new Forbidden(INVALID_LINK_DETAIL);
      }

      const file = storage.filePath(key);
      const size = await fileSize(file);
      const range = parseRange(request.headers.range, size);
      if (range === "unsatisfiable") {
        throw new HttpError(
          416,
          "The requested range is not satisfiable.",
          {},
          {
            "content-range": `bytes */${size}`,
          },
        );
      }

      // The browser may reuse the bytes until the link itself would stop working, and no longer.
      const remaining = Math.max(0, Math.floor((exp * 1000 - now.getTime()) / 1000));
      reply
        .header("content-type", contentTypeForKey(key) ?? "application/octet-stream")
        .header("cache-control", `private, max-age=${remaining}`)
        .header("accept-ranges", "bytes");
      if (!range) {
        return reply.header("content-length", size).send(createReadStream(file));
      }
      return reply
        .code(206)
        .header("content-range", `bytes ${range.start}-${range.end}/${size}`)
        .header("content-length", range.end - range.start + 1)
        .send(createReadStream(file, { start: range.start, end: range.end }));
    },
  );
};

async function fileSize(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new NotFound("Media not found");
    return info.size;
  } catch (error) {
    if (isMissingFile(error)) throw new NotFound("Media not found");
    throw error;
  }
}
