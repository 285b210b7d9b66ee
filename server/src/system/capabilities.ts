// What GET /api/config reports as on, derived from configuration alone.
import type { Capability } from "@storyverse/contract/system";
import type { Config } from "../config";

export function capabilitiesFor(config: Pick<Config, "requireEmailVerification">): Capability[] {
  const capabilities: Capability[] = ["accounts"];
  if (config.requireEmailVerification) capabilities.push("email_verification");
  return capabilities;
}
