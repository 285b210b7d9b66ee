// POST /api/studio/advisor-chat: ask the prompt advisor (0.5 credits). The answer is Markdown.
import {
  type AdvisorChatRequest,
  type AdvisorChatResponse,
  advisorChatResponseSchema,
} from "@storyverse/contract/studio";
import { apiRequest } from "../../../lib/api-client";

export function askAdvisor(body: AdvisorChatRequest): Promise<AdvisorChatResponse> {
  return apiRequest("/api/studio/advisor-chat", {
    method: "POST",
    body,
    schema: advisorChatResponseSchema,
    timeoutMs: 120_000,
  });
}
