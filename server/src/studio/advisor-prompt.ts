// How the Studio's prompt advisor is asked. The request's purpose ("advice") tells the offline text provider
// it is the advisor (decision 0151); the role line is for a vendor model and anyone reading logs.
import { ADVISOR_HISTORY_WINDOW } from "@storyverse/contract/studio";
import type { ChatMessage } from "../providers/types";

export const ADVISOR_ROLE_LINE = "Role: prompt advisor";

export const advisorSystemPrompt = [
  "You help creators in an AI image studio write better image prompts.",
  ADVISOR_ROLE_LINE,
  "",
  "A strong prompt names a concrete subject (who or what, and how it looks), a style or medium, the lighting,",
  "the composition, and the camera (shot size, angle, lens). When the user shares an idea or a draft prompt,",
  "give an improved prompt they can paste as is, in a quote block, then say in one or two bullets what you",
  "changed and why. When they ask a question, answer it directly.",
  "The studio makes 1 to 4 images per prompt and accepts up to 10 input images as references; suggest",
  "references when the user wants a character, product or style kept consistent across images.",
  "",
  "Answer in short Markdown (at most about 150 words): bullets, bold and quote blocks are fine; no HTML,",
  "no tables, no images. Stay on image making; steer away from harmful requests politely.",
].join("\n");

export function buildAdvisorMessages(
  history: { role: "user" | "assistant"; content: string }[],
  prompt: string,
): ChatMessage[] {
  return [
    { role: "system", content: advisorSystemPrompt },
    ...history.slice(-ADVISOR_HISTORY_WINDOW).map((m) => ({ role: m.role, content: m.content })),
    { role: "user", content: prompt },
  ];
}
