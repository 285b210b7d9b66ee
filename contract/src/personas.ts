// Personas (issue #43 item 4, decision 0152): who the player plays. A name (what `{{user}}` stands for), a
// description the narrator is told, a portrait (one of the player's gallery images) that steers the scene
// pictures, and a default voice; one may be the default for stories that choose none.
import { z } from "zod";
import { voiceIdSchema } from "./voice";

/** An account keeps at most this many personas: the list is answered whole, never paged. */
export const PERSONAS_MAX = 50;
export const PERSONA_NAME_MAX_LENGTH = 60;
/** Sent whole to the narrator on every turn, so kept to about a thousand tokens. */
export const PERSONA_DESCRIPTION_MAX_LENGTH = 4000;
export const TOO_MANY_PERSONAS_DETAIL = `You can keep at most ${PERSONAS_MAX} personas. Delete one you no longer play first.`;
export const PERSONA_PORTRAIT_NOT_YOURS_DETAIL = "portrait_item_id: choose one of your own gallery pictures.";
export const PERSONA_NOT_FOUND_DETAIL = "Persona not found";
export const STORY_PERSONA_NOT_YOURS_DETAIL =
  "persona_id: choose one of your personas (GET /api/personas), or null for your default.";

const nameMessage = `name must be 1 to ${PERSONA_NAME_MAX_LENGTH} characters`;
const nameSchema = z
  .string({ error: nameMessage })
  .trim()
  .min(1, nameMessage)
  .max(PERSONA_NAME_MAX_LENGTH, nameMessage)
  .refine((name) => !/[\r\n]/.test(name), "name must be one line");
const descriptionSchema = z
  .string({ error: "description must be text" })
  .trim()
  .max(
    PERSONA_DESCRIPTION_MAX_LENGTH,
    `description must be at most ${PERSONA_DESCRIPTION_MAX_LENGTH.toLocaleString("en-US")} characters`,
  );
const portraitSchema = z.uuid(PERSONA_PORTRAIT_NOT_YOURS_DETAIL).nullable();
const defaultSchema = z.boolean({ error: "is_default must be true or false" });

export const createPersonaRequestSchema = z
  .object({
    name: nameSchema,
    description: descriptionSchema.default(""),
    /** One of the player's gallery pictures (GET /api/media); null: no portrait. */
    portrait_item_id: portraitSchema.default(null),
    /** One of GET /api/voices; null: none chosen. */
    voice: voiceIdSchema.nullable().default(null),
    /** Make it the default (the one before stops being it). */
    is_default: defaultSchema.default(false),
  })
  .strict();
export type CreatePersonaRequest = z.input<typeof createPersonaRequestSchema>;

/** A change: the fields sent are replaced, the others kept; `is_default: false` leaves no default. */
export const updatePersonaRequestSchema = z
  .object({
    name: nameSchema.optional(),
    description: descriptionSchema.optional(),
    portrait_item_id: portraitSchema.optional(),
    voice: voiceIdSchema.nullable().optional(),
    is_default: defaultSchema.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((value) => value !== undefined), {
    message: "Nothing to update: send name, description, portrait_item_id, voice or is_default",
  });
export type UpdatePersonaRequest = z.input<typeof updatePersonaRequestSchema>;

export const personaSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** The portrait's gallery picture; null when none (or the picture was deleted). */
  portrait: z.object({ gallery_item_id: z.string(), url: z.string() }).nullable(),
  voice: z.string().nullable(),
  is_default: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Persona = z.infer<typeof personaSchema>;

export const personaResponseSchema = z.object({ success: z.literal(true), persona: personaSchema });
export const personasResponseSchema = z.object({
  success: z.literal(true),
  /** Oldest first; at most PERSONAS_MAX, so never paged. */
  personas: z.array(personaSchema),
  max: z.number().int(),
});
export type PersonasResponse = z.infer<typeof personasResponseSchema>;
export const deletePersonaResponseSchema = z.object({ success: z.literal(true) });
