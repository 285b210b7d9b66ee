// Personas (issue #43 item 4, decision 0152): who the player plays. At most PERSONAS_MAX an account (the list is
// answered whole); at most one is the default, which a story without a chosen persona is played as. A portrait
// is one of the player's own gallery pictures (checked when set; a picture deleted later leaves no portrait),
// a voice one the speech provider lists. Another account's persona is a 404, as an unknown one.
import {
  type CreatePersonaRequest,
  PERSONA_NOT_FOUND_DETAIL,
  PERSONA_PORTRAIT_NOT_YOURS_DETAIL,
  PERSONAS_MAX,
  type Persona,
  STORY_PERSONA_NOT_YOURS_DETAIL,
  TOO_MANY_PERSONAS_DETAIL,
  type UpdatePersonaRequest,
} from "@storyverse/contract/personas";
import type { AppContext } from "../context";
import type { Queryable } from "../db/client";
import { ownedMediaByIds } from "../media";
import { InvalidInput, NotFound } from "../platform/errors";
import { assertVoiceOffered } from "../voices";
import {
  clearDefault,
  countPersonas,
  deletePersona as deleteRow,
  findDefaultPersona,
  findPersona,
  insertPersona,
  listPersonas,
  lockAccount,
  type PersonaRow,
  updatePersona as updateRow,
} from "./repo";

type PersonasContext = Pick<AppContext, "db" | "clock" | "storage" | "providers" | "log">;

/** Each persona's portrait picture, if it is still one of the player's gallery images. */
async function portraitItems(ctx: Pick<AppContext, "db">, userId: string, rows: PersonaRow[]) {
  const ids = [...new Set(rows.flatMap((row) => (row.portraitItemId ? [row.portraitItemId] : [])))];
  const items = await ownedMediaByIds(ctx, userId, ids);
  return new Map(items.filter((item) => item.kind === "image").map((item) => [item.id, item]));
}

async function toPersonas(
  ctx: Pick<AppContext, "db" | "storage">,
  userId: string,
  rows: PersonaRow[],
): Promise<Persona[]> {
  const items = await portraitItems(ctx, userId, rows);
  return Promise.all(
    rows.map(async (row) => {
      const item = row.portraitItemId ? items.get(row.portraitItemId) : undefined;
      return {
        id: row.id,
        name: row.name,
        description: row.description,
        portrait: item
          ? {
              gallery_item_id: item.id,
              url: await ctx.storage.signedUrl(item.thumbnailKey ?? item.storageKey),
            }
          : null,
        voice: row.voice,
        is_default: row.isDefault,
        created_at: row.createdAt.toISOString(),
        updated_at: row.updatedAt.toISOString(),
      };
    }),
  );
}

async function assertPortraitOwned(ctx: Pick<AppContext, "db">, userId: string, itemId: string) {
  const [item] = await ownedMediaByIds(ctx, userId, [itemId]);
  if (item?.kind !== "image") throw new InvalidInput(PERSONA_PORTRAIT_NOT_YOURS_DETAIL);
}

export async function personaList(ctx: PersonasContext, userId: string): Promise<Persona[]> {
  return toPersonas(ctx, userId, await listPersonas(ctx.db, userId));
}

export async function createPersona(
  ctx: PersonasContext,
  userId: string,
  input: CreatePersonaRequest,
): Promise<Persona> {
  const portrait = input.portrait_item_id ?? null;
  if (portrait) await assertPortraitOwned(ctx, userId, portrait);
  const voice = input.voice ?? null;
  if (voice) await assertVoiceOffered(ctx, voice);
  const row = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    if ((await countPersonas(tx, userId)) >= PERSONAS_MAX) throw new InvalidInput(TOO_MANY_PERSONAS_DETAIL);
    if (input.is_default) await clearDefault(tx, userId);
    return insertPersona(
      tx,
      userId,
      {
        name: input.name,
        description: input.description ?? "",
        portraitItemId: portrait,
        voice,
        isDefault: input.is_default ?? false,
      },
      ctx.clock.now(),
    );
  });
  const [persona] = await toPersonas(ctx, userId, [row]);
  return persona!;
}

export async function updatePersona(
  ctx: PersonasContext,
  userId: string,
  id: string,
  input: UpdatePersonaRequest,
): Promise<Persona> {
  if (!(await findPersona(ctx.db, userId, id))) throw new NotFound(PERSONA_NOT_FOUND_DETAIL);
  if (input.portrait_item_id) await assertPortraitOwned(ctx, userId, input.portrait_item_id);
  if (input.voice) await assertVoiceOffered(ctx, input.voice);
  const row = await ctx.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    if (input.is_default) await clearDefault(tx, userId);
    return updateRow(tx, userId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.portrait_item_id !== undefined ? { portraitItemId: input.portrait_item_id } : {}),
      ...(input.voice !== undefined ? { voice: input.voice } : {}),
      ...(input.is_default !== undefined ? { isDefault: input.is_default } : {}),
      updatedAt: ctx.clock.now(),
    });
  });
  if (!row) throw new NotFound(PERSONA_NOT_FOUND_DETAIL);
  const [persona] = await toPersonas(ctx, userId, [row]);
  return persona!;
}

/**
 * What a deleted persona's stories must hear: the foreign key (ON DELETE SET NULL) set them back to the default
 * persona, so this process forgets their cached rows now (other processes hear the table's change signal). The
 * stories module's, handed in by the root (decision 0171), so personas imports no stories.
 */
export type StoriesPlayedAs = (q: Queryable, userId: string) => void;

/** Stories played as it go back to the default persona (the foreign key sets theirs to null). */
export async function deletePersona(
  ctx: PersonasContext,
  userId: string,
  id: string,
  storiesReset: StoriesPlayedAs,
): Promise<void> {
  if (!(await deleteRow(ctx.db, userId, id))) throw new NotFound(PERSONA_NOT_FOUND_DETAIL);
  storiesReset(ctx.db, userId);
}

/** A story's persona_id must name one of the player's personas (400 otherwise, changing nothing). */
export async function assertPersonaOwned(ctx: Pick<AppContext, "db">, userId: string, id: string) {
  if (!(await findPersona(ctx.db, userId, id))) throw new InvalidInput(STORY_PERSONA_NOT_YOURS_DETAIL);
}

/** Who the player plays in a story as a turn sees it: the chosen persona, else the default, else nobody. */
export type PlayedPersona = { name: string; description: string; portraitKey: string | null };

export async function playedPersona(
  ctx: Pick<AppContext, "db">,
  userId: string,
  personaId: string | null,
): Promise<PlayedPersona | null> {
  const row =
    (personaId ? await findPersona(ctx.db, userId, personaId) : null) ??
    (await findDefaultPersona(ctx.db, userId));
  if (!row) return null;
  const item = (await portraitItems(ctx, userId, [row])).get(row.portraitItemId ?? "");
  return { name: row.name, description: row.description, portraitKey: item?.storageKey ?? null };
}

/** The name a new story's words use for `{{user}}`: the default persona's, else null (the username, then). */
export async function defaultPersonaName(
  ctx: Pick<AppContext, "db">,
  userId: string,
): Promise<string | null> {
  return (await findDefaultPersona(ctx.db, userId))?.name ?? null;
}

/** The account's personas for its data export (decision 0143): what each is, its portrait by gallery id. */
export async function personasForExport(ctx: Pick<AppContext, "db">, userId: string) {
  return (await listPersonas(ctx.db, userId)).map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    portrait_gallery_item_id: row.portraitItemId,
    voice: row.voice,
    is_default: row.isDefault,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}
