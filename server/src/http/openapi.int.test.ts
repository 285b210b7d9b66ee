// The OpenAPI document tells the truth: every route is called through app.inject, for its success and its
// error answers, and each real answer is checked against the document the server publishes: its status is
// documented for that operation, its content type is one the document lists, and a JSON body validates
// (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses) against the documented schema.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/app";
import { createUser, newCredentials, type TestUser } from "../../test/factories";
import { galleryImage } from "../../test/media";
import { multipart } from "../../test/multipart";
import { changeAccount } from "../accounts/service";
import { insertSuggestions } from "../story-cards/living-lore-repo";

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type Operation = { responses: Record<string, { content?: Record<string, { schema?: object }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components?: object };

type Call = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The documented path, e.g. /api/stories/{id}. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The caller's session; null for none. */
  token?: string | null;
  headers?: Record<string, string>;
};

/** Operations whose success the test app cannot reach, and why (each still has its error answers checked). */
const SUCCESS_OUT_OF_REACH: Record<string, string> = {
  "GET /api/events": "an event stream never ends, so app.inject cannot wait for it (events tests cover it)",
  "POST /api/transcribe-audio": "the test app has no speech provider: the capability is off (503)",
  "POST /api/payments/webhook": "needs a payment provider's signature (payments tests cover it)",
  "POST /api/payments/verify-session": "needs a finished checkout at the payment provider",
  "POST /api/subscription/manage-billing": "needs a billing account at the payment provider",
  "GET /api/verify-email/{token}": "needs the link from a mail (accounts tests cover it)",
  "POST /api/reset-password": "needs the link from a mail (accounts tests cover it)",
  "GET /api/video-status/{taskId}": "needs a video job (media tests cover it)",
  "GET /api/stories/{id}/messages/{message_id}/speech/chunks/{index}":
    "a narration's piece is kept only while it is made (voice/narration-pieces.int.test.ts holds the voice)",
  "POST /api/admin/jobs/{kind}/{id}/retry":
    "needs a job that failed for good (admin/operations.int.test.ts makes one and retries it)",
  "POST /api/admin/archives/{id}/retry":
    "needs a deletion whose archive failed for good (admin/archives.int.test.ts makes one and retries it)",
};

const uuid = () => crypto.randomUUID();

describe("the OpenAPI document against the real answers", () => {
  let t: TestApp;
  let doc: Document;
  let user: TestUser;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  /** "METHOD path" → the statuses seen. */
  const seen = new Map<string, Set<number>>();
  /** Every answer that disagrees with the document, all reported at the end. */
  const problems: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    doc = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  function check(call: Call, res: LightMyRequestResponse): void {
    const where = `${call.method} ${call.path}`;
    const operation = doc.paths[call.path]?.[call.method.toLowerCase()];
    if (!operation) {
      problems.push(`${where} is not documented`);
      return;
    }
    const statuses = seen.get(where) ?? new Set<number>();
    statuses.add(res.statusCode);
    seen.set(where, statuses);
    const response = operation.responses[String(res.statusCode)];
    if (!response) {
      const text = String(res.headers["content-type"]).includes("json") ? ` (${res.body.slice(0, 200)})` : "";
      problems.push(`${where} answered ${res.statusCode}, undocumented${text}`);
    }
    if (!response || res.rawPayload.length === 0) return;
    const type = String(res.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase();
    const listed = Object.keys(response.content ?? {});
    const match = listed.find(
      (candidate) =>
        candidate === type || (candidate.endsWith("/*") && type?.startsWith(candidate.slice(0, -1))),
    );
    if (!match)
      problems.push(`${where} ${res.statusCode} answered ${type}; the document lists ${listed.join(", ")}`);
    if (type !== "application/json" || !match) return;
    const key = `${where} ${res.statusCode}`;
    let validate = validators.get(key);
    if (!validate) {
      const schema = response.content?.[match]?.schema ?? {};
      validate = ajv.compile({ ...schema, components: doc.components });
      validators.set(key, validate);
    }
    const body = res.json();
    if (!validate(body)) {
      problems.push(
        `${key}: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${JSON.stringify(body).slice(0, 300)}`,
      );
    }
  }

  async function call(spec: Call): Promise<LightMyRequestResponse> {
    const path = spec.path.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const value = spec.params?.[name];
      if (value === undefined) throw new Error(`${spec.path}: no value for {${name}}`);
      return name === "key" ? value : encodeURIComponent(value);
    });
    const query = spec.query ? `?${new URLSearchParams(spec.query)}` : "";
    const token = spec.token === undefined ? user.token : spec.token;
    const res = await t.app.inject({
      method: spec.method,
      url: `${path}${query}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...spec.headers },
      ...(spec.body === undefined ? {} : { payload: spec.body as object }),
    });
    check(spec, res);
    return res;
  }

  async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
    for (let i = 0; i < 300; i++) {
      const value = await read();
      if (value !== undefined) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  it("documents every answer of every route, success and error alike", async () => {
    // System.
    await call({ method: "GET", path: "/api/health" });
    await call({ method: "GET", path: "/api/ready" });
    await call({ method: "GET", path: "/api/config" });

    // Newsletter.
    await call({
      method: "POST",
      path: "/api/newsletter",
      body: { email: "reader@example.com" },
      token: null,
    });
    await call({ method: "POST", path: "/api/newsletter", body: { email: "not an email" }, token: null });

    // Accounts.
    const fresh = newCredentials();
    expect((await call({ method: "POST", path: "/api/register", body: fresh, token: null })).statusCode).toBe(
      200,
    );
    await call({ method: "POST", path: "/api/register", body: fresh, token: null });
    await call({ method: "POST", path: "/api/register", body: {}, token: null });
    const login = await call({
      method: "POST",
      path: "/api/login",
      body: { email: user.email, password: user.password },
      token: null,
    });
    expect(login.statusCode).toBe(200);
    await call({
      method: "POST",
      path: "/api/login",
      body: { email: user.email, password: "wrong-password-1" },
    });
    // Signing out and asking for a new password end sessions: another person does both.
    const other = await createUser(t);
    await call({ method: "POST", path: "/api/logout", token: other.token });
    await call({
      method: "GET",
      path: "/api/check-username/{username}",
      params: { username: "someone_new" },
    });
    await call({ method: "GET", path: "/api/check-email/{email}", params: { email: "new@example.com" } });
    await call({ method: "GET", path: "/api/verify-email/{token}", params: { token: "not-a-real-token" } });
    await call({
      method: "POST",
      path: "/api/resend-verification",
      body: { email: fresh.email },
      token: null,
    });
    await call({ method: "POST", path: "/api/forgot-password", body: { email: other.email }, token: null });
    await call({
      method: "POST",
      path: "/api/reset-password",
      body: { token: "not-a-real-token", password: "a-New-passw0rd!" },
      token: null,
    });
    await call({ method: "GET", path: "/api/user/verify" });
    await call({ method: "GET", path: "/api/profile" });
    await call({ method: "PATCH", path: "/api/profile", body: { locale: "fr" } });
    await call({ method: "PATCH", path: "/api/profile", body: { locale: "en" } });

    // Credits and payments.
    await call({ method: "GET", path: "/api/credit-balance" });
    await call({ method: "GET", path: "/api/quota" });
    await call({ method: "GET", path: "/api/credit-history" });
    await call({ method: "GET", path: "/api/credit-history", query: { limit: "lots" } });
    await call({ method: "GET", path: "/api/monthly-activity" });
    await call({ method: "GET", path: "/api/subscription-details" });
    await call({
      method: "POST",
      path: "/api/payments/create-checkout-session",
      body: { price_id: "starter" },
    });
    await call({ method: "POST", path: "/api/payments/create-checkout-session", body: {} });
    await call({ method: "POST", path: "/api/payments/verify-session", body: { session_id: "cs_nope" } });
    await call({ method: "POST", path: "/api/subscription/manage-billing" });
    await call({ method: "POST", path: "/api/payments/webhook", body: { type: "nothing" }, token: null });

    // Stories: a chat-only turn (JSON and streamed), then its versions, edits, undo and continue.
    const created = await call({ method: "POST", path: "/api/stories", body: { title: "The harbour" } });
    expect(created.statusCode, created.body).toBe(200);
    const storyId = created.json().story.id as string;
    await call({ method: "POST", path: "/api/stories", body: { title: "" } });
    await call({ method: "GET", path: "/api/stories" });
    await call({
      method: "PUT",
      path: "/api/stories/{id}",
      params: { id: storyId },
      body: { context: "Night." },
    });
    await call({ method: "PUT", path: "/api/stories/{id}", params: { id: storyId }, body: {} });
    const story = { id: storyId };
    const turn = await call({
      method: "POST",
      path: "/api/stories/{id}/chat",
      params: story,
      body: { prompt: "We walk to the harbour.", chat_mode: "chat" },
    });
    expect(turn.statusCode).toBe(200);
    const messageId = turn.json().message_id as string;
    const streamed = await call({
      method: "POST",
      path: "/api/stories/{id}/chat",
      params: story,
      body: { prompt: "We look at the boats.", chat_mode: "chat" },
      headers: { accept: "text/event-stream" },
    });
    expect(streamed.headers["content-type"]).toContain("text/event-stream");
    await call({ method: "POST", path: "/api/stories/{id}/chat", params: story, body: { prompt: "" } });
    await call({ method: "GET", path: "/api/stories/{id}", params: story });
    await call({ method: "GET", path: "/api/stories/{id}/messages", params: story });
    await call({ method: "GET", path: "/api/stories/{id}/media", params: story });
    const newest = (
      await t.app.inject({
        method: "GET",
        url: `/api/stories/${storyId}/messages`,
        headers: { authorization: `Bearer ${user.token}` },
      })
    ).json();
    const newestId = String(
      (Array.isArray(newest) ? newest : (newest.messages ?? [])).at(-1)?.message_id ?? messageId,
    );
    const message = { id: storyId, message_id: newestId };
    await call({
      method: "GET",
      path: "/api/stories/{id}/media-status/{messageId}",
      params: { id: storyId, messageId: newestId },
    });
    await call({
      method: "POST",
      path: "/api/stories/{id}/messages/{message_id}/retry",
      params: message,
      body: {},
    });
    await call({ method: "GET", path: "/api/stories/{id}/messages/{message_id}/versions", params: message });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/messages/{message_id}/versions/{n}/select",
      params: { ...message, n: "1" },
    });
    await call({
      method: "PATCH",
      path: "/api/stories/{id}/messages/{message_id}",
      params: message,
      body: { content: "The harbour was quiet." },
    });
    await call({
      method: "POST",
      path: "/api/stories/{id}/messages/{message_id}/card-draft",
      params: message,
    });
    await call({ method: "POST", path: "/api/stories/{id}/undo", params: story });
    await call({ method: "GET", path: "/api/stories/{id}/redo", params: story });
    await call({ method: "POST", path: "/api/stories/{id}/redo", params: story });
    await call({ method: "POST", path: "/api/stories/{id}/redo", params: story });
    await call({ method: "POST", path: "/api/stories/{id}/continue", params: story, body: {} });
    await call({ method: "GET", path: "/api/stories/{id}/memory", params: story });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/memory",
      params: story,
      body: { memory: "A harbour town.", authors_note: "Keep it calm." },
    });
    await call({ method: "GET", path: "/api/stories/{id}/context", params: story });
    // Recall: what a turn's words bring back, and pinning or forgetting an exchange.
    await call({
      method: "GET",
      path: "/api/stories/{id}/recall",
      params: story,
      query: { prompt: "the door" },
    });
    await call({ method: "GET", path: "/api/stories/{id}/recall", params: story });
    const recallTurn = await call({
      method: "POST",
      path: "/api/stories/{id}/chat",
      params: story,
      body: { prompt: "We ring the harbour bell.", chat_mode: "chat" },
    });
    const narratorId = String(recallTurn.json().message_id);
    await call({
      method: "PUT",
      path: "/api/stories/{id}/recall/{message_id}",
      params: { id: storyId, message_id: narratorId },
      body: { pinned: true },
    });
    await call({ method: "PUT", path: "/api/stories/{id}/recall/{message_id}", params: message, body: {} });
    // Branches and checkpoints: name an exchange, branch from it, rename, view, delete.
    const exchange = { id: storyId, message_id: narratorId };
    await call({
      method: "PUT",
      path: "/api/stories/{id}/checkpoints/{message_id}",
      params: exchange,
      body: { name: "Before the bell" },
    });
    const forked = await call({
      method: "POST",
      path: "/api/stories/{id}/branches",
      params: story,
      body: { from_message_id: narratorId, name: "The bell unrung" },
    });
    const branch = { id: storyId, branch_id: String(forked.json().branch.id) };
    await call({ method: "GET", path: "/api/stories/{id}/branches", params: story });
    await call({
      method: "PATCH",
      path: "/api/stories/{id}/branches/{branch_id}",
      params: branch,
      body: { name: "Silence" },
    });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/branch",
      params: story,
      body: { branch_id: storyId },
    });
    await call({ method: "DELETE", path: "/api/stories/{id}/branches/{branch_id}", params: branch });
    await call({
      method: "DELETE",
      path: "/api/stories/{id}/branches/{branch_id}",
      params: { id: storyId, branch_id: storyId },
    });
    await call({ method: "GET", path: "/api/stories/{id}/lore-settings", params: story });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/lore-settings",
      params: story,
      body: { lore_budget_percent: 40, lore_scan_depth: 2 },
    });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/lore-settings",
      params: story,
      body: { lore_budget_percent: 100 },
    });
    // Living lore's drafts (two put in place of the job's, which reads the narration) and the scene state.
    const at = new Date();
    await insertSuggestions(
      t.database.db,
      ["Brannoc", "Oswin"].map((name) => ({
        userId: user.userId,
        storyId,
        name,
        nameKey: name.toLowerCase(),
        kind: "character" as const,
        description: "",
        createdAt: at,
      })),
    );
    const drafts = await call({ method: "GET", path: "/api/stories/{id}/lore-suggestions", params: story });
    const [brannoc, oswin] = (drafts.json().suggestions as { id: string }[]).map((draft) => draft.id);
    const draftPath = "/api/stories/{id}/lore-suggestions/{sid}";
    await call({
      method: "POST",
      path: `${draftPath}/accept`,
      params: { id: storyId, sid: String(brannoc) },
      body: { description: "The gatekeeper." },
    });
    await call({
      method: "POST",
      path: `${draftPath}/accept`,
      params: { id: storyId, sid: String(brannoc) },
    });
    await call({ method: "POST", path: `${draftPath}/dismiss`, params: { id: storyId, sid: String(oswin) } });
    await call({ method: "POST", path: `${draftPath}/dismiss`, params: { id: storyId, sid: uuid() } });
    await call({ method: "GET", path: "/api/stories/{id}/scene-state", params: story });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/scene-state",
      params: story,
      body: { weather: "rain" },
    });
    await call({ method: "PUT", path: "/api/stories/{id}/scene-state", params: story, body: {} });
    // Generation settings and the models they choose from.
    await call({ method: "GET", path: "/api/models" });
    await call({ method: "GET", path: "/api/stories/{id}/settings", params: story });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/settings",
      params: story,
      body: { output_length: "short", temperature: 0.7, input_mode: "do" },
    });

    // Voices and narration (the offline speech provider).
    const voices = await call({ method: "GET", path: "/api/voices" });
    const voice = String(voices.json().voices?.[0]?.id ?? "none");
    await call({ method: "GET", path: "/api/voices/{voice}/sample", params: { voice } });
    await call({ method: "GET", path: "/api/voices/{voice}/sample", params: { voice: "nobody" } });
    await call({ method: "GET", path: "/api/stories/{id}/messages/{message_id}/speech", params: message });
    await call({ method: "POST", path: "/api/stories/{id}/messages/{message_id}/speech", params: message });
    await call({
      method: "POST",
      path: "/api/stories/{id}/messages/{message_id}/speech",
      params: { id: storyId, message_id: uuid() },
    });
    await call({
      method: "POST",
      path: "/api/stories/{id}/speech/live",
      params: story,
      body: { text: "The tower bell rang twice." },
    });
    await call({ method: "POST", path: "/api/stories/{id}/speech/live", params: story, body: { text: " " } });
    await call({
      method: "GET",
      path: "/api/stories/{id}/messages/{message_id}/speech/chunks/{index}",
      params: { ...message, index: "99" },
    });

    // Personas (decision 0152), and a story played as one.
    const persona = await call({ method: "POST", path: "/api/personas", body: { name: "Ash", voice } });
    await call({ method: "POST", path: "/api/personas", body: { name: "" } });
    await call({ method: "GET", path: "/api/personas" });
    const personaId = { id: String(persona.json().persona?.id) };
    await call({ method: "PUT", path: "/api/personas/{id}", params: personaId, body: { is_default: true } });
    await call({ method: "PUT", path: "/api/personas/{id}", params: { id: uuid() }, body: { name: "Bo" } });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/settings",
      params: story,
      body: { persona_id: personaId.id },
    });
    await call({ method: "DELETE", path: "/api/personas/{id}", params: personaId });
    await call({ method: "DELETE", path: "/api/personas/{id}", params: personaId });

    // Story cards.
    await call({ method: "GET", path: "/api/stories/{id}/cards", params: story });
    const card = await call({
      method: "POST",
      path: "/api/stories/{id}/cards",
      params: story,
      body: { name: "Mara", triggers: ["Mara"] },
    });
    const cardId = String(card.json().card?.id ?? card.json().id);
    await call({ method: "POST", path: "/api/stories/{id}/cards", params: story, body: { name: "" } });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/cards/{card_id}",
      params: { id: storyId, card_id: cardId },
      body: { description: "The harbour master." },
    });
    // Character cards and lorebooks: the card out as a file and JSON, the cards as a lorebook, both back in
    // (a preview first), the card as a new story, and the starters.
    const cardParams = { id: storyId, card_id: cardId };
    const exportPath = "/api/stories/{id}/cards/{card_id}/export";
    await call({ method: "GET", path: exportPath, params: cardParams, query: { format: "png" } });
    const cardJson = await call({
      method: "GET",
      path: exportPath,
      params: cardParams,
      query: { format: "json" },
    });
    await call({ method: "GET", path: exportPath, params: cardParams, query: { format: "gif" } });
    const lore = await call({
      method: "GET",
      path: "/api/stories/{id}/cards/export",
      params: story,
      query: { format: "worldinfo" },
    });
    const upload = (file: Buffer) => {
      const form = multipart(file, "upload.json");
      return { body: form.payload, headers: form.headers };
    };
    const importPath = "/api/stories/{id}/cards/import";
    await call({
      method: "POST",
      path: importPath,
      params: story,
      query: { dry_run: "true" },
      ...upload(lore.rawPayload),
    });
    await call({ method: "POST", path: importPath, params: story, ...upload(Buffer.from("not a lorebook")) });
    await call({ method: "POST", path: "/api/stories/import", ...upload(cardJson.rawPayload) });
    const starters = await call({ method: "GET", path: "/api/starters" });
    await call({
      method: "POST",
      path: "/api/starters/{id}/start",
      params: { id: starters.json().starters[0].id },
    });
    await call({
      method: "DELETE",
      path: "/api/stories/{id}/cards/{card_id}",
      params: { id: storyId, card_id: cardId },
    });

    // A picture turn: the media arrive by job, then the files behind them.
    const pictureTurn = await call({
      method: "POST",
      path: "/api/stories/{id}/chat",
      params: story,
      body: { prompt: "Paint the harbour at night.", chat_mode: "image" },
    });
    const pictureId = pictureTurn.json().message_id as string;
    const imageUrl = await until(async () => {
      const res = await call({
        method: "GET",
        path: "/api/stories/{id}/media-status/{messageId}",
        params: { id: storyId, messageId: pictureId },
      });
      return (res.json().image_url as string | null) ?? undefined;
    }, "the picture");
    const mediaUrl = new URL(imageUrl, "http://app.test");
    const key = mediaUrl.pathname.replace(/^\/api\/media\//, "");
    const signed = Object.fromEntries(mediaUrl.searchParams);
    await call({ method: "GET", path: "/api/media/{id}", params: { id: key }, query: signed, token: null });
    await call({
      method: "GET",
      path: "/api/media/{id}",
      params: { id: key },
      query: signed,
      token: null,
      headers: { range: "bytes=0-99" },
    });
    await call({
      method: "GET",
      path: "/api/media/{id}",
      params: { id: key },
      query: { ...signed, sig: "forged" },
      token: null,
    });
    await call({ method: "GET", path: "/api/download", query: { url: imageUrl } });
    await call({ method: "GET", path: "/api/download", query: { url: "/api/media/someone-else.png" } });
    // The turn shows an edit of its picture (decision 0163), and a picture from elsewhere is refused.
    const turnPicture = await t.app.inject({
      method: "GET",
      url: `/api/media/by-url?url=${encodeURIComponent(imageUrl)}`,
      headers: { authorization: `Bearer ${user.token}` },
    });
    const varied = await t.app.inject({
      method: "POST",
      url: `/api/media/${turnPicture.json().item.id}/edit`,
      headers: { authorization: `Bearer ${user.token}` },
      payload: { kind: "vary" },
    });
    const turnMessage = { id: storyId, message_id: pictureId };
    const shown = await call({
      method: "PUT",
      path: "/api/stories/{id}/messages/{message_id}/media",
      params: turnMessage,
      body: { gallery_item_id: varied.json().item.id },
    });
    expect(shown.statusCode, shown.body).toBe(200);
    await call({
      method: "PUT",
      path: "/api/stories/{id}/messages/{message_id}/media",
      params: turnMessage,
      body: { gallery_item_id: (await galleryImage(t, user.userId, "#445566")).id },
    });
    await call({
      method: "PUT",
      path: "/api/stories/{id}/messages/{message_id}/media",
      params: turnMessage,
      body: { gallery_item_id: uuid() },
    });

    // The older chat and media reads.
    const legacy = await call({ method: "POST", path: "/api/chat", body: { prompt: "Hello there." } });
    await call({ method: "GET", path: "/api/chat/history" });
    await call({
      method: "GET",
      path: "/api/chat/media-status/{messageId}",
      params: { messageId: String(legacy.json().message_id ?? uuid()) },
    });
    await call({ method: "GET", path: "/api/video-status/{taskId}", params: { taskId: uuid() } });
    await call({ method: "GET", path: "/api/user/latest-media" });
    await call({ method: "GET", path: "/api/last-image" });
    await call({ method: "GET", path: "/api/user/images" });
    await call({ method: "GET", path: "/api/user/videos" });
    await call({ method: "GET", path: "/api/gallery" });
    await call({ method: "GET", path: "/api/gallery", query: { limit: "-3" } });
    // The storage quota and deleting gallery items (decision 0122).
    await call({ method: "GET", path: "/api/media/usage" });
    const doomed = [
      await galleryImage(t, user.userId, "#112233"),
      await galleryImage(t, user.userId, "#332211"),
    ];
    await call({ method: "DELETE", path: "/api/gallery/{id}", params: { id: uuid() } });
    await call({ method: "DELETE", path: "/api/gallery/{id}", params: { id: "not-an-id" } });
    await call({ method: "DELETE", path: "/api/gallery/{id}", params: { id: doomed[0]!.id } });
    await call({ method: "POST", path: "/api/gallery/delete", body: { ids: [] } });
    await call({ method: "POST", path: "/api/gallery/delete", body: { ids: [doomed[1]!.id] } });
    // Organising the gallery (decision 0141), and the same deletes under /api/media.
    const kept = await galleryImage(t, user.userId, "#223344");
    const gone = await galleryImage(t, user.userId, "#443322");
    const made = await call({ method: "POST", path: "/api/boards", body: { name: "Harbour" } });
    const board = { id: (made.json() as { board: { id: string } }).board.id };
    await call({ method: "POST", path: "/api/boards", body: { name: "harbour" } });
    await call({ method: "GET", path: "/api/boards" });
    await call({ method: "PUT", path: "/api/boards/{id}", params: board, body: { add: [kept.id] } });
    await call({ method: "PUT", path: "/api/boards/{id}", params: board, body: {} });
    const keptParams = { id: kept.id };
    await call({ method: "PUT", path: "/api/media/{id}", params: keptParams, body: { favourite: true } });
    await call({ method: "GET", path: "/api/media/{id}/details", params: keptParams });
    await call({
      method: "POST",
      path: "/api/media/{id}/edit",
      params: keptParams,
      body: { kind: "upscale" },
    });
    // Clips (decision 0160): a clip from a picture, its job, an extension of the clip it made, a refusal; by a
    // player of their own, so the clips' prices leave the Studio's credits alone.
    const clipper = await createUser(t);
    const asClipper = { token: clipper.token };
    const still = { id: (await galleryImage(t, clipper.userId, "#335577")).id };
    const clip = await call({
      method: "POST",
      path: "/api/media/{id}/animate",
      params: still,
      body: { camera: "push_in" },
      ...asClipper,
    });
    const clipJob = { job_id: (clip.json() as { job_id: string }).job_id };
    let clipItem: { id: string } | null = null;
    for (let tries = 0; tries < 300 && !clipItem; tries++) {
      const job = await call({
        method: "GET",
        path: "/api/media/clips/{job_id}",
        params: clipJob,
        ...asClipper,
      });
      clipItem = (job.json() as { item: { id: string } | null }).item;
      if (!clipItem) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const extended = { id: clipItem!.id };
    await call({ method: "POST", path: "/api/media/{id}/extend", params: extended, body: {}, ...asClipper });
    await call({ method: "POST", path: "/api/media/{id}/extend", params: still, body: {}, ...asClipper });
    const keptUrl = await t.ctx.storage.signedUrl(kept.storageKey);
    await call({ method: "GET", path: "/api/media/by-url", query: { url: keptUrl } });
    await call({ method: "GET", path: "/api/gallery", query: { board: board.id, favourite: "1" } });
    await call({ method: "POST", path: "/api/media/zip", body: { ids: [kept.id] } });
    await call({ method: "DELETE", path: "/api/boards/{id}", params: board });
    await call({ method: "DELETE", path: "/api/media/{id}", params: keptParams });
    await call({ method: "POST", path: "/api/media/delete", body: { ids: [gone.id] } });

    // Studio.
    await call({ method: "GET", path: "/api/studio/messages" });
    await call({ method: "POST", path: "/api/studio/advisor-chat", body: { prompt: "A lighthouse?" } });
    const batch = await call({
      method: "POST",
      path: "/api/studio/generate-image",
      body: { prompt: "A lighthouse" },
    });
    await call({ method: "POST", path: "/api/studio/generate-image", body: { prompt: "" } });
    await call({
      method: "GET",
      path: "/api/studio/batches/{id}",
      params: { id: String(batch.json().message_id ?? batch.json().batch?.message_id ?? uuid()) },
    });

    // Voice input is off in the test app.
    await call({ method: "POST", path: "/api/transcribe-audio" });

    // Exports: straight downloads, then a made export and the film.
    for (const format of ["md", "epub", "pdf"]) {
      await call({ method: "GET", path: "/api/stories/{id}/export", params: story, query: { format } });
    }
    await call({ method: "GET", path: "/api/stories/{id}/export", params: story, query: { format: "doc" } });
    const started = await call({
      method: "POST",
      path: "/api/stories/{id}/exports",
      params: story,
      body: { format: "epub" },
    });
    const exportId = started.json().export.id as string;
    await until(async () => {
      const res = await call({
        method: "GET",
        path: "/api/stories/{id}/exports/{exportId}",
        params: { id: storyId, exportId },
      });
      return ["completed", "failed"].includes(res.json().export.status) ? true : undefined;
    }, "the export");
    await call({
      method: "GET",
      path: "/api/stories/{id}/exports/{exportId}/file",
      params: { id: storyId, exportId },
    });
    // Story backups: the story as an archive, and that archive restored as a new story.
    const backup = await call({ method: "GET", path: "/api/stories/{id}/backup", params: story });
    await call({ method: "GET", path: "/api/stories/{id}/backup/summary", params: story });
    const boundary = "----openapi-restore";
    const previewed = await call({
      method: "POST",
      path: "/api/stories/restore",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      body: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="story.storyverse.zip"\r\nContent-Type: application/zip\r\n\r\n`,
        ),
        backup.rawPayload,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    // The preview, then the restore as a job, polled until it ends.
    const restore = { restore_id: previewed.json().restore.id as string };
    await call({ method: "POST", path: "/api/stories/restore/{restore_id}/confirm", params: restore });
    await until(async () => {
      const res = await call({ method: "GET", path: "/api/stories/restore/{restore_id}", params: restore });
      return ["completed", "failed"].includes(res.json().restore.status) ? true : undefined;
    }, "the restore");
    await call({ method: "POST", path: "/api/stories/{id}/film", params: story });
    await call({ method: "GET", path: "/api/stories/{id}/film", params: story });

    // Sharing.
    const shared = await call({ method: "POST", path: "/api/stories/{id}/share", params: story, body: {} });
    const shareToken = new URL(shared.json().url as string).pathname.split("/").at(-1) as string;
    await call({ method: "GET", path: "/api/stories/{id}/share", params: story });
    const reading = await call({
      method: "GET",
      path: "/api/shared/{token}",
      params: { token: shareToken },
      token: null,
    });
    const cover = reading.json().story?.thumbnail as string | null | undefined;
    if (cover) {
      const coverUrl = new URL(cover, "http://app.test");
      const ref = coverUrl.pathname.split("/").at(-1) as string;
      await call({
        method: "GET",
        path: "/api/shared/{token}/media/{ref}",
        params: { token: shareToken, ref },
        query: Object.fromEntries(coverUrl.searchParams),
        token: null,
      });
    }
    if (doc.paths["/api/shared/{token}/preview.jpg"]) {
      await call({
        method: "GET",
        path: "/api/shared/{token}/preview.jpg",
        params: { token: shareToken },
        token: null,
      });
    }
    await call({ method: "DELETE", path: "/api/stories/{id}/share", params: story });
    // With the link revoked, seeing it again is the documented 404.
    await call({ method: "GET", path: "/api/stories/{id}/share", params: story });
    await call({ method: "GET", path: "/api/shared/{token}", params: { token: shareToken }, token: null });
    await call({
      method: "GET",
      path: "/api/shared/{token}/media/{ref}",
      params: { token: shareToken, ref: "cover" },
      token: null,
    });

    // The admin console, as an administrator (anyone else gets the 404 the loop below sees).
    const admin = await createUser(t);
    await changeAccount(t.ctx, admin.userId, { role: "admin" });
    const asAdmin = { token: admin.token };
    const account = { id: user.userId };
    await call({ method: "GET", path: "/api/admin/users", query: { q: "user" }, ...asAdmin });
    await call({ method: "GET", path: "/api/admin/users", query: { cursor: "nonsense" }, ...asAdmin });
    await call({ method: "GET", path: "/api/admin/users/{id}", params: account, ...asAdmin });
    await call({
      method: "PUT",
      path: "/api/admin/users/{id}",
      params: account,
      body: { daily_cap: 100 },
      ...asAdmin,
    });
    await call({
      method: "PUT",
      path: "/api/admin/users/{id}",
      params: { id: admin.userId },
      body: { disabled: true },
      ...asAdmin,
    });
    const credits = { amount: 1, reason: "OpenAPI" };
    await call({
      method: "POST",
      path: "/api/admin/users/{id}/credits",
      params: account,
      body: credits,
      ...asAdmin,
    });
    await call({
      method: "POST",
      path: "/api/admin/users/{id}/credits",
      params: account,
      body: { amount: -1_000_000, reason: "OpenAPI" },
      ...asAdmin,
    });
    await call({ method: "GET", path: "/api/admin/caps", ...asAdmin });
    const caps = { daily_default: null, monthly_default: null, install_daily: null };
    await call({ method: "PUT", path: "/api/admin/caps", body: caps, ...asAdmin });
    await call({ method: "GET", path: "/api/admin/audit", ...asAdmin });
    await call({
      method: "POST",
      path: "/api/admin/users/{id}/sessions/revoke",
      params: { id: other.userId },
      ...asAdmin,
    });
    // The rest of the console (decision 0150): usage as JSON and CSV, health, a share link taken down, a
    // forced reset and a deletion.
    await call({ method: "GET", path: "/api/admin/usage", query: { group_by: "kind" }, ...asAdmin });
    await call({ method: "GET", path: "/api/admin/usage", query: { format: "csv" }, ...asAdmin });
    await call({
      method: "GET",
      path: "/api/admin/usage",
      query: { from: "2025-01-01", to: "2026-06-01" },
      ...asAdmin,
    });
    await call({ method: "GET", path: "/api/admin/health", ...asAdmin });
    await call({
      method: "POST",
      path: "/api/admin/jobs/{kind}/{id}/retry",
      params: { kind: "nothing", id: uuid() },
      ...asAdmin,
    });
    const moderated = await call({
      method: "POST",
      path: "/api/stories",
      body: { title: "Taken down", context: "x" },
    });
    const moderatedStory = { id: (moderated.json() as { story: { id: string } }).story.id };
    const moderatedLink = await call({
      method: "POST",
      path: "/api/stories/{id}/share",
      params: moderatedStory,
    });
    const moderatedToken = (moderatedLink.json() as { url: string }).url.split("/s/")[1]!;
    await call({ method: "GET", path: "/api/admin/shares", query: { q: user.email }, ...asAdmin });
    await call({ method: "GET", path: "/api/admin/shares", query: { cursor: "nonsense" }, ...asAdmin });
    await call({
      method: "DELETE",
      path: "/api/admin/shares/{token}",
      params: { token: moderatedToken },
      body: { reason: "" },
      ...asAdmin,
    });
    await call({
      method: "DELETE",
      path: "/api/admin/shares/{token}",
      params: { token: moderatedToken },
      body: { reason: "OpenAPI" },
      ...asAdmin,
    });
    await call({ method: "POST", path: "/api/stories/{id}/share", params: moderatedStory });
    await call({ method: "GET", path: "/api/admin/shares", query: { status: "taken_down" }, ...asAdmin });
    await call({
      method: "POST",
      path: "/api/admin/shares/{token}/lift",
      params: { token: moderatedToken },
      body: { reason: "OpenAPI" },
      ...asAdmin,
    });
    await call({
      method: "POST",
      path: "/api/admin/users/{id}/password-reset",
      params: { id: admin.userId },
      body: {},
      ...asAdmin,
    });
    const reset = await createUser(t);
    await call({
      method: "POST",
      path: "/api/admin/users/{id}/password-reset",
      params: { id: reset.userId },
      body: { reason: "OpenAPI" },
      ...asAdmin,
    });
    await call({
      method: "DELETE",
      path: "/api/admin/users/{id}",
      params: { id: reset.userId },
      body: { reason: "OpenAPI", confirm_email: "someone@example.com" },
      ...asAdmin,
    });
    await call({
      method: "DELETE",
      path: "/api/admin/users/{id}",
      params: { id: admin.userId },
      body: { reason: "OpenAPI", confirm_email: admin.email },
      ...asAdmin,
    });
    const deleting = await call({
      method: "DELETE",
      path: "/api/admin/users/{id}",
      params: { id: reset.userId },
      body: { reason: "OpenAPI", confirm_email: reset.email },
      ...asAdmin,
    });
    // Archives of deleted accounts (decision 0157): the deletion above answers 202 and the worker finishes it.
    const deletedArchive = { id: (deleting.json() as { archive: { id: string } }).archive.id };
    await until(async () => {
      const res = await call({
        method: "GET",
        path: "/api/admin/archives/{id}",
        params: deletedArchive,
        ...asAdmin,
      });
      return (res.json() as { archive: { status: string } }).archive.status === "kept" ? true : undefined;
    }, "the deleted account's archive");
    await call({ method: "GET", path: "/api/admin/archives", ...asAdmin });
    await call({ method: "GET", path: "/api/admin/archives", query: { cursor: "nonsense" }, ...asAdmin });
    await call({
      method: "POST",
      path: "/api/admin/archives/{id}/download",
      params: deletedArchive,
      ...asAdmin,
    });
    await call({
      method: "POST",
      path: "/api/admin/archives/{id}/retry",
      params: deletedArchive,
      ...asAdmin,
    });
    await call({
      method: "DELETE",
      path: "/api/admin/archives/{id}",
      params: deletedArchive,
      body: { reason: "OpenAPI" },
      ...asAdmin,
    });

    // Leaving (decision 0143): the account's archive asked for and read, then a throwaway account deleted.
    const leaving = await createUser(t);
    const asLeaving = { token: leaving.token };
    const archive = await call({ method: "POST", path: "/api/account/export", ...asLeaving });
    const archiveId = { id: (archive.json() as { export: { id: string } }).export.id };
    await call({ method: "GET", path: "/api/account/export/{id}", params: archiveId, ...asLeaving });
    await call({ method: "DELETE", path: "/api/account", body: { password: "not it" }, ...asLeaving });
    await call({
      method: "DELETE",
      path: "/api/account",
      body: { password: leaving.password },
      ...asLeaving,
    });

    // The event stream refuses a caller without a session (its success never ends: see above).
    await call({ method: "GET", path: "/api/events", token: null });

    await call({ method: "DELETE", path: "/api/stories/{id}", params: story });

    // Every operation's error answers: no session, and things that do not exist (or are not the caller's).
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const spec = { method: method.toUpperCase() as Call["method"], path };
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
        const params = Object.fromEntries(names.map((name) => [name, name === "n" ? "1" : uuid()]));
        const secured = JSON.stringify((operation as { security?: unknown[] }).security ?? []) !== "[]";
        const body = ["POST", "PUT", "PATCH"].includes(spec.method) ? {} : undefined;
        if (secured) await call({ ...spec, params, body, token: null });
        if (names.length > 0) await call({ ...spec, params, body });
      }
    }

    // Every operation was called, and each one's success was seen unless it is out of the test app's reach.
    const missing: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const method of Object.keys(operations)) {
        const where = `${method.toUpperCase()} ${path}`;
        const statuses = [...(seen.get(where) ?? [])];
        const succeeded = statuses.some((status) => status >= 200 && status < 300);
        if (!succeeded && !SUCCESS_OUT_OF_REACH[where])
          missing.push(`${where} (saw ${statuses.join(", ") || "nothing"})`);
      }
    }
    expect(problems, "answers the document does not describe").toEqual([]);
    expect(missing, "operations whose success was never seen").toEqual([]);
  });
});
