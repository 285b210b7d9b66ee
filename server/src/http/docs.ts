// The OpenAPI document, generated from the contract's zod schemas, and Swagger UI at /api/docs.
// OpenAPI 3.1, so a nullable enum is `anyOf: [{enum}, {type: "null"}]` (3.0's `nullable` adds no null to an
// enum). Beside what each route declares, the document says what the HTTP edge can answer on any route (the
// error body for bad input, a missing session, a missing resource, a busy database) and what the routes that
// answer files or event streams send, with its content types (docs/decisions/0091-openapi-3-1.md).
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { errorBodySchema } from "@storyverse/contract/errors";
import type { FastifyInstance, FastifySchema } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { inputErrorStatuses } from "./secure-by-default";
import { docsContentSecurityPolicy } from "./security";

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];
type JsonObject = Record<string, unknown>;

/** What each error status means, as the response's description. */
const ERROR_MEANINGS: Record<number, string> = {
  400: "The request is not valid (a field, the path or the query); detail names what",
  401: "Not signed in, or the session has ended",
  402: "Not enough credits for this",
  403: "The link is not valid (forged, or expired)",
  404: "No such thing, or not yours",
  409: "It conflicts with the current state; detail says what to do",
  413: "The request body is too large",
  416: "The requested byte range is not in the file",
  429: "Too many requests; Retry-After says when to try again",
  500: "An unexpected failure (nothing internal is told)",
  502: "The AI provider failed",
  503: "Unavailable for now (the database is busy or down, or the capability is off); try again later",
};

const mediaTypes = ["image/*", "video/*"];
const exportTypes = ["application/zip", "application/epub+zip", "application/pdf"];

type FileAnswer = { description: string; types: string[]; statuses?: number[] };

/**
 * The answers that are not JSON, by route ("METHOD url" as registered). A streaming chat call answers JSON
 * or, with Accept: text/event-stream, an event stream: both are listed.
 */
const FILE_ANSWERS: Record<string, FileAnswer> = {
  "GET /api/events": {
    description: "The user's events as they happen (media, credits, story), with a heartbeat",
    types: ["text/event-stream"],
  },
  "POST /api/stories/:id/chat": streamedTurn(),
  "POST /api/stories/:id/messages/:message_id/retry": streamedTurn(),
  "POST /api/stories/:id/continue": streamedTurn(),
  "GET /api/download": { description: "The file, as an attachment", types: mediaTypes },
  "GET /api/media/*": {
    description: "The media file (206: the requested byte range of it)",
    types: [...mediaTypes, "application/octet-stream"],
    statuses: [200, 206],
  },
  "GET /api/stories/:id/export": {
    description: "The story as a file: Markdown with its pictures (zip), EPUB 3 or PDF",
    types: exportTypes,
  },
  "GET /api/stories/:id/exports/:exportId/file": {
    description: "The finished export, as an attachment",
    types: exportTypes,
  },
  "GET /api/stories/:id/backup": {
    description: "The whole story as one archive: storyverse-story.json and its media",
    types: ["application/zip"],
  },
  "POST /api/media/zip": {
    description: "The chosen gallery items' originals as one zip, streamed",
    types: ["application/zip"],
  },
  "GET /api/stories/:id/cards/:card_id/export": {
    description:
      "The Story Card as a Character Card V3: a PNG (ccv3 and chara chunks), a CHARX (zip) or JSON",
    types: ["image/png", "application/zip"],
  },
  "GET /api/shared/:token/media/:ref": {
    description: "A picture or clip of the shared story (with w: the picture as a WebP that wide)",
    types: mediaTypes,
  },
  "GET /api/shared/:token/preview.jpg": {
    description: "The shared story's link-preview picture, 1200x630, for as long as the link lives",
    types: ["image/jpeg"],
  },
  "GET /api/voices/:voice/sample": {
    description: "A short sample of the voice, as a WAV",
    types: ["audio/wav"],
  },
  "POST /api/stories/:id/speech/live": {
    description: "The sentence spoken in the story's voices, as a WAV",
    types: ["audio/wav"],
  },
  "GET /api/stories/:id/messages/:message_id/speech/chunks/:index": {
    description: "The piece of the narration being made, as a WAV",
    types: ["audio/wav"],
  },
  "GET /api/admin/usage": {
    description: "The usage report as JSON, or with format=csv as a CSV attachment (a column per kind)",
    types: ["text/csv"],
  },
};

function streamedTurn(): FileAnswer {
  return {
    description:
      "JSON, or with Accept: text/event-stream the text as it is written (`delta` events, then `done` with " +
      "the JSON answer, or `error` with the error body)",
    types: ["text/event-stream"],
  };
}

/** Statuses some routes give that no general rule below finds, by route. */
const EXTRA_ERRORS: Record<string, number[]> = {
  "GET /api/download": [404],
  "GET /api/media/*": [403, 416],
  // Rate limited in the handler (kit.limiter), without a 429 among the route's own responses.
  "POST /api/transcribe-audio": [429],
  "GET /api/stories/:id/export": [429, 503],
  "GET /api/stories/:id/backup": [429],
  "POST /api/media/zip": [429],
  "GET /api/shared/:token/media/:ref": [403, 429],
  "GET /api/shared/:token/preview.jpg": [429],
  "GET /api/voices/:voice/sample": [404, 429, 502, 503],
  "POST /api/stories/:id/speech/live": [404, 409, 429, 502, 503],
  "GET /api/stories/:id/messages/:message_id/speech/chunks/:index": [404],
};

/**
 * The wildcard's name in the document (a path parameter must be a name). A media file's key takes the name of
 * the gallery item calls' `{id}` (PUT and DELETE /api/media/{id}), so the two are one path of the document
 * rather than two identical templates; its description says it is a key there.
 */
const WILDCARD_NAMES: Record<string, string> = { "/api/media/*": "id" };
const SUMMARIES: Record<string, string> = {
  "GET /api/media/*": "A locally stored media file by its signed link (exp and sig), with byte ranges",
};

/** A stable operationId from the route: GET /api/stories/:id/messages is getStoriesByIdMessages. */
function operationId(key: string): string {
  const [method = "get", url = ""] = key.split(" ");
  const words = url
    .replace(/^\/api\//, "")
    .split(/[/_.-]+/)
    .filter(Boolean)
    .flatMap((part) =>
      part.startsWith(":") ? ["by", ...part.slice(1).split("_")] : part === "*" ? ["by", "key"] : [part],
    );
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join(
    "",
  );
}

function routeKey(input: TransformInput): string {
  const method = [input.route.method].flat()[0] ?? "GET";
  return `${method} ${input.url}`;
}

/** The error statuses the HTTP edge can give a route, beside those the route declares itself. */
function generalErrors(schema: FastifySchema & JsonObject, key: string): number[] {
  const statuses = [500, 503, ...inputErrorStatuses(schema)];
  if (Array.isArray(schema.security) && schema.security.length > 0) statuses.push(401);
  return [...statuses, ...(EXTRA_ERRORS[key] ?? [])];
}

function withWildcardNamed(input: TransformInput): TransformInput {
  const name = WILDCARD_NAMES[input.url];
  if (!name) return input;
  return { ...input, url: input.url.replace(/\*$/, `{${name}}`) };
}

function describeDocument(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const key = routeKey(input);
  const source = (input.schema ?? {}) as FastifySchema & JsonObject;
  if (source.hide) return jsonSchemaTransform(input);
  const { produces: _produces, ...schema } = source;
  const declared = (schema.response ?? {}) as Record<string, unknown>;
  const response: Record<string, unknown> = { ...declared };
  for (const status of generalErrors(schema, key)) response[status] ??= errorBodySchema;
  const transformed = jsonSchemaTransform({ ...withWildcardNamed(input), schema: { ...schema, response } });
  const out = transformed.schema as JsonObject;
  const wildcard = WILDCARD_NAMES[input.url];
  if (wildcard) out.params = renameWildcard(out.params as JsonObject | undefined, wildcard);
  out.summary ??= SUMMARIES[key];
  out.operationId ??= operationId(key);
  // A public route says so: it needs no credentials.
  out.security ??= [];
  const responses = out.response as Record<string, JsonObject>;
  for (const [status, json] of Object.entries(responses)) {
    const meaning = ERROR_MEANINGS[Number(status)];
    if (meaning && !json.description && !json.content) responses[status] = { ...json, description: meaning };
  }
  const files = FILE_ANSWERS[key];
  if (files) {
    for (const status of files.statuses ?? [200]) {
      const existing = responses[status];
      const content: Record<string, JsonObject> = {};
      if (existing) {
        // The JSON answer the route declares stays, beside the streamed one.
        content["application/json"] = { schema: existing };
      }
      for (const type of files.types) content[type] = { schema: fileSchema(type) };
      responses[status] = { description: files.description, content };
    }
  }
  return { schema: out, url: withWildcardNamed(input).url };
}

function fileSchema(type: string): JsonObject {
  if (type === "text/event-stream") {
    return { type: "string", description: "Server-sent events: `event:`, `id:` and `data:` (JSON) lines" };
  }
  return { type: "string", contentMediaType: type };
}

function renameWildcard(params: JsonObject | undefined, name: string): JsonObject | undefined {
  const properties = params?.properties as JsonObject | undefined;
  if (!params || !properties || !("*" in properties)) return params;
  const { "*": wildcard, ...rest } = properties;
  const required = ((params.required as string[] | undefined) ?? []).map((entry) =>
    entry === "*" ? name : entry,
  );
  return {
    ...params,
    properties: {
      ...rest,
      [name]: { ...(wildcard as JsonObject), description: "The media file's key (slashes kept)" },
    },
    required,
  };
}

export async function installApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Storyverse API",
        description:
          "AI storytelling and media creation. Authenticated calls carry `Authorization: Bearer <token>`. " +
          "Every error answer is JSON with a human-readable `detail`.",
        version: "1.0.0",
        license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
      },
      servers: [{ url: "/", description: "This server" }],
      components: {
        securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      },
    },
    transform: describeDocument,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    transformStaticCSP: () => docsContentSecurityPolicy,
    uiConfig: { docExpansion: "list", deepLinking: true },
  });
}
