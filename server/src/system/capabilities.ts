// What GET /api/config reports, derived from configuration alone.
import type { Capability, ConfigResponse } from "@storyverse/contract/system";
import type { Config } from "../config";

export function describeServer(
  config: Pick<Config, "requireEmailVerification" | "providers"> &
    Partial<Pick<Config, "oidc" | "passwordLogin">>,
): ConfigResponse {
  const { text, image, video, speech } = config.providers;
  const capabilities: Capability[] = ["accounts"];
  if (config.requireEmailVerification) capabilities.push("email_verification");
  capabilities.push("text", "image", "video");
  if (speech.kind !== "none") capabilities.push("transcription");
  // Credit packs can always be bought: through Stripe, or locally through the sandbox checkout.
  capabilities.push("payments");
  return {
    capabilities,
    providers: {
      text: text.kind,
      image: image.kind,
      video: video.kind,
      transcription: speech.kind === "none" ? null : speech.kind,
    },
    offline_providers: [text.kind, image.kind, video.kind].includes("offline"),
    ...(config.oidc && {
      sign_in: { password: config.passwordLogin !== false, oidc: { name: config.oidc.providerName } },
    }),
  };
}
