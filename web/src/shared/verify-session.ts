// GET /api/user/verify: is the stored token still a live session, and who is it (with the balance)?
import { type VerifyUserResponse, verifyUserResponseSchema } from "@storyverse/contract/accounts";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiRequest } from "../lib/api-client";

export function verifySession(signal?: AbortSignal): Promise<VerifyUserResponse> {
  return apiRequest("/api/user/verify", { schema: verifyUserResponseSchema, signal, timeoutMs: 30_000 });
}

export const SESSION_PATH = "/api/user/verify";

export const sessionQueryOptions = () =>
  queryOptions({
    queryKey: ["session"],
    queryFn: ({ signal }) => verifySession(signal),
  });

export function useSession(enabled = true) {
  return useQuery({ ...sessionQueryOptions(), enabled });
}
