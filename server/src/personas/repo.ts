// SQL for personas (decision 0152). Every query is scoped to the owner.
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/client";
import { personas } from "../db/schema";

export type PersonaRow = typeof personas.$inferSelect;
type PersonaValues = Pick<PersonaRow, "name" | "description" | "portraitItemId" | "voice" | "isDefault">;

export async function listPersonas(q: Queryable, userId: string): Promise<PersonaRow[]> {
  return q
    .select()
    .from(personas)
    .where(eq(personas.userId, userId))
    .orderBy(asc(personas.createdAt), asc(personas.id));
}

export async function findPersona(q: Queryable, userId: string, id: string): Promise<PersonaRow | null> {
  const [row] = await q
    .select()
    .from(personas)
    .where(and(eq(personas.userId, userId), eq(personas.id, id)));
  return row ?? null;
}

export async function findDefaultPersona(q: Queryable, userId: string): Promise<PersonaRow | null> {
  const [row] = await q
    .select()
    .from(personas)
    .where(and(eq(personas.userId, userId), eq(personas.isDefault, true)));
  return row ?? null;
}

/** Serialises a user's persona changes until the transaction ends, so two creations cannot both pass the cap. */
export async function lockAccount(q: Queryable, userId: string): Promise<void> {
  await q.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`personas:${userId}`}, 0))`);
}

export async function countPersonas(q: Queryable, userId: string): Promise<number> {
  const [row] = await q.select({ n: count() }).from(personas).where(eq(personas.userId, userId));
  return row?.n ?? 0;
}

/** No persona of the account is the default any more. */
export async function clearDefault(q: Queryable, userId: string): Promise<void> {
  await q
    .update(personas)
    .set({ isDefault: false })
    .where(and(eq(personas.userId, userId), eq(personas.isDefault, true)));
}

export async function insertPersona(
  q: Queryable,
  userId: string,
  values: PersonaValues,
  at: Date,
): Promise<PersonaRow> {
  const [row] = await q
    .insert(personas)
    .values({ userId, ...values, createdAt: at, updatedAt: at })
    .returning();
  return row!;
}

export async function updatePersona(
  q: Queryable,
  userId: string,
  id: string,
  values: Partial<PersonaValues> & { updatedAt: Date },
): Promise<PersonaRow | null> {
  const [row] = await q
    .update(personas)
    .set(values)
    .where(and(eq(personas.userId, userId), eq(personas.id, id)))
    .returning();
  return row ?? null;
}

export async function deletePersona(q: Queryable, userId: string, id: string): Promise<boolean> {
  const deleted = await q
    .delete(personas)
    .where(and(eq(personas.userId, userId), eq(personas.id, id)))
    .returning({ id: personas.id });
  return deleted.length > 0;
}
