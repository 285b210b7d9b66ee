// Health probe and capability discovery: the first calls any client makes.
import { z } from "zod";
import { MEDIA_EDIT_KINDS } from "./media-edit";

export const healthResponseSchema = z.object({ status: z.literal("ok") });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * Readiness: the process takes new requests (its database answers and it is not shutting down). `details`
 * says how its parts are: Redis (when REDIS_URL is set) only shares rate limits between processes, so while
 * it is lost the process stays ready and says "degraded" (each process counts in memory meanwhile).
 */
export const readyResponseSchema = z.object({
  status: z.literal("ready"),
  details: z.object({
    database: z.literal("ok"),
    redis: z.enum(["ok", "degraded"]).optional(),
  }),
});

/** Capabilities the server can switch on; later modules add theirs here. */
export const capabilitySchema = z.enum([
  "accounts",
  "email_verification",
  "text",
  "image",
  "video",
  "transcription",
  "payments",
]);
export type Capability = z.infer<typeof capabilitySchema>;

export const configResponseSchema = z.object({
  capabilities: z.array(capabilitySchema).describe("The capabilities that are on"),
  providers: z
    .object({
      text: z.string(),
      image: z.string(),
      video: z.string(),
      transcription: z.string().nullable(),
    })
    .describe(
      "Which adapter serves each capability; 'offline' means generated locally, without an AI vendor",
    ),
  offline_providers: z.boolean().describe("True when any capability is served by the offline providers"),
  image_edit_kinds: z
    .array(z.enum(MEDIA_EDIT_KINDS))
    .optional()
    .describe(
      "The picture edits the configured image service can make (POST /api/media/{id}/edit, decision 0148); absent: none",
    ),
  video_clip_features: z
    .object({
      last_frame: z.boolean().describe("A clip can end on a chosen picture (last_frame_id)"),
      camera: z.boolean().describe("A clip follows a camera move (camera)"),
    })
    .optional()
    .describe(
      "What the configured video service takes beyond a first frame (POST /api/media/{id}/animate and /extend, decision 0160); absent: neither",
    ),
  sign_in: z
    .object({
      password: z.boolean().describe("Whether email and password sign-in and registration are on"),
      oidc: z.object({ name: z.string() }).nullable().describe("The OIDC provider's button label, when on"),
    })
    .optional()
    .describe("Present when sign-in by OIDC is configured (decision 0146); absent means password only"),
});
export type ConfigResponse = z.infer<typeof configResponseSchema>;
