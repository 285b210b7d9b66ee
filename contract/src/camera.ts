// What the camera sees (issue #29 part 3): the story's scene state (where, time of day, weather) and each
// character card's current appearance, kept after every turn from the narration and added to every scene's
// picture and video prompt so that a torn cloak or a fallen night stays from one picture to the next.
import { z } from "zod";

/** Each field of the scene state is at most this long. */
export const SCENE_STATE_FIELD_MAX_LENGTH = 100;
/** A character card's current appearance (clothes, injuries, what they carry). */
export const APPEARANCE_MAX_LENGTH = 300;
/** At most this many characters' appearances go into a scene's prompt (the most recently changed first). */
export const CAMERA_CHARACTERS_MAX = 4;
/** The camera's text in a media job: the scene state and CAMERA_CHARACTERS_MAX appearances, with their labels. */
export const CAMERA_TEXT_MAX_LENGTH =
  3 * (SCENE_STATE_FIELD_MAX_LENGTH + 20) + CAMERA_CHARACTERS_MAX * (APPEARANCE_MAX_LENGTH + 80) + 40;
/** Stands for the scene the illustrator writes from the next answer, in the preview of the painter's prompt. */
export const NEXT_SCENE_PLACEHOLDER = "[the scene the illustrator writes from the next answer]";

const fieldSchema = (field: string) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(SCENE_STATE_FIELD_MAX_LENGTH, `${field} must be at most ${SCENE_STATE_FIELD_MAX_LENGTH} characters`);

export const sceneStateSchema = z.object({
  place: z.string(),
  time_of_day: z.string(),
  weather: z.string(),
});
export type SceneState = z.infer<typeof sceneStateSchema>;

/** A correction by hand: the fields sent are replaced ("" clears one). */
export const sceneStateUpdateSchema = z
  .object({
    place: fieldSchema("place").optional(),
    time_of_day: fieldSchema("time_of_day").optional(),
    weather: fieldSchema("weather").optional(),
  })
  .strict()
  .refine((value) => Object.values(value).some((field) => field !== undefined), {
    message: "Nothing to update: send place, time_of_day or weather",
  });
export type SceneStateUpdate = z.input<typeof sceneStateUpdateSchema>;

export const sceneStateResponseSchema = z.object({
  success: z.literal(true),
  scene_state: sceneStateSchema,
});

export const appearanceSchema = z
  .string({ error: "appearance must be text" })
  .trim()
  .max(APPEARANCE_MAX_LENGTH, `appearance must be at most ${APPEARANCE_MAX_LENGTH} characters`);

/** "What the camera sees": what the next picture would be painted from, besides its scene. */
export const cameraSchema = z.object({
  /** The painter's whole prompt, with NEXT_SCENE_PLACEHOLDER where the next answer's scene goes. */
  scene_prompt: z.string(),
  scene_state: sceneStateSchema,
  /** The characters whose appearance the prompt carries. */
  characters: z.array(z.object({ card_id: z.string(), name: z.string(), appearance: z.string() })),
  /** The reference images the next picture would get, in order (as `image_references`). */
  references: z.array(
    z.discriminatedUnion("source", [
      z.object({ source: z.literal("selected"), position: z.number().int() }),
      z.object({ source: z.literal("portrait"), card_id: z.string(), name: z.string(), url: z.string() }),
      /** The portrait of the persona the player plays (decision 0152), last. */
      z.object({ source: z.literal("persona"), name: z.string(), url: z.string() }),
    ]),
  ),
});
export type Camera = z.infer<typeof cameraSchema>;
