// The story's film: a job that joins the story's clips and scene pans into one narrated MP4 with captions.
import { z } from "zod";

export const filmSchema = z.object({
  id: z.string(),
  status: z.enum(["queued", "running", "completed", "failed"]),
  progress: z.number().describe("0 to 100"),
  /** What it is doing now, while queued or running ("Narrating scene 3 of 22"); null once it ended. */
  step: z.string().nullable().default(null),
  error: z.string().nullable(),
  /** The film, once made (it is also in the Gallery as a video). */
  video_url: z.string().nullable(),
  /** The film's captions as WebVTT: the narration's sentences, each timed to its voice. */
  captions_url: z.string().nullable(),
  media_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Film = z.infer<typeof filmSchema>;

export const filmResponseSchema = z.object({
  success: z.literal(true),
  /** The newest film of the story, or null when none was made. */
  film: filmSchema.nullable(),
  /**
   * What making a film costs, in credits: 0 with the offline voice, a vendor voice's narration else; 0 when the
   * newest film shows the story as it is (starting one then answers that film again).
   */
  cost: z.number(),
  /** Starting one: true when the newest film, made from the same story and voices, answered instead. */
  reused: z.boolean().optional(),
});
export type FilmResponse = z.infer<typeof filmResponseSchema>;
