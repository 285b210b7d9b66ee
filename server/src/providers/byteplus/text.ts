// ModelArk chat: its /chat/completions is OpenAI-compatible, so the OpenAI adapter does the work.
import { createOpenAITextProvider } from "../openai/text";
import type { TextProvider } from "../types";
import type { BytePlusSettings } from "./settings";

export function createBytePlusTextProvider(settings: BytePlusSettings): TextProvider {
  return createOpenAITextProvider({ ...settings, vendor: "byteplus" });
}
