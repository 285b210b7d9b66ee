// The console's Usage, Health and Moderation calls, and the account actions added with them (decision 0150):
// a forced password reset and deleting an account. Each answers 404 to anyone but an administrator.
import {
  type AdminSharesResponse,
  type AdminUsageResponse,
  adminForcedResetSchema,
  adminHealthSchema,
  adminJobRetriedSchema,
  adminSharesResponseSchema,
  adminTakedownLiftedSchema,
  adminTakenDownSchema,
  adminUsageResponseSchema,
  adminUserDeletedSchema,
  adminUserDeletingSchema,
} from "@storyverse/contract/admin";
import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { apiDownload, apiRequest } from "../../../lib/api-client";
import { fetchSearchPage } from "./admin-api";

const ADMIN_KEY = ["admin"] as const;
const auditKey = [...ADMIN_KEY, "audit"] as const;
const healthKey = [...ADMIN_KEY, "health"] as const;
/** live: links that work; taken_down: the ones an administrator took down (which can be lifted). */
export type ShareStatus = "live" | "taken_down";
const sharesKey = (q: string, status: ShareStatus) => [...ADMIN_KEY, "shares", status, q] as const;

export type UsageGroup = "day" | "kind" | "user";
export type UsageQuery = { from: string; to: string; group_by: UsageGroup };

const usageParams = (query: UsageQuery, format?: "csv") =>
  new URLSearchParams({ ...query, ...(format ? { format } : {}) });

export function useAdminUsage(query: UsageQuery) {
  return useQuery({
    queryKey: [...ADMIN_KEY, "usage", query] as const,
    queryFn: ({ signal }): Promise<AdminUsageResponse> =>
      apiRequest(`/api/admin/usage?${usageParams(query)}`, {
        schema: adminUsageResponseSchema,
        signal,
        timeoutMs: 30_000,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Saves the report as CSV under the server's file name (the download is in the audit log). */
export async function downloadUsageCsv(query: UsageQuery): Promise<void> {
  const { blob, filename } = await apiDownload(`/api/admin/usage?${usageParams(query, "csv")}`);
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = objectUrl;
  link.download = filename ?? `storyverse-usage-${query.group_by}-${query.from}-to-${query.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
}

export function useAdminHealth() {
  return useQuery({
    queryKey: healthKey,
    queryFn: ({ signal }) =>
      apiRequest("/api/admin/health", { schema: adminHealthSchema, signal, timeoutMs: 15_000 }),
    refetchInterval: 30_000,
  });
}

export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: string; id: string }) =>
      apiRequest(`/api/admin/jobs/${encodeURIComponent(kind)}/${encodeURIComponent(id)}/retry`, {
        method: "POST",
        schema: adminJobRetriedSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: healthKey });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

function fetchShares(
  q: string,
  status: ShareStatus,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AdminSharesResponse> {
  return fetchSearchPage("/api/admin/shares", adminSharesResponseSchema, {
    q,
    cursor,
    signal,
    timeoutMs: 30_000,
    extra: { status },
  });
}

export function useAdminShares(q: string, status: ShareStatus = "live") {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: sharesKey(q, status),
      queryFn: ({ pageParam, signal }) => fetchShares(q, status, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  );
}

export function useTakeDown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ token, reason }: { token: string; reason: string }) =>
      apiRequest(`/api/admin/shares/${encodeURIComponent(token)}`, {
        method: "DELETE",
        body: { reason },
        schema: adminTakenDownSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "shares"] });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

/** POST /api/admin/shares/{token}/lift: the link works again and its owner no longer sees the reason. */
export function useLiftTakedown() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ token }: { token: string }) =>
      apiRequest(`/api/admin/shares/${encodeURIComponent(token)}/lift`, {
        method: "POST",
        body: {},
        schema: adminTakedownLiftedSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "shares"] });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

export function useForceReset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      apiRequest(`/api/admin/users/${encodeURIComponent(id)}/password-reset`, {
        method: "POST",
        body: reason ? { reason } : {},
        schema: adminForcedResetSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "user", id] });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

export function useDeleteUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: { reason: string; confirm_email: string }) =>
      apiRequest(`/api/admin/users/${encodeURIComponent(id)}`, {
        method: "DELETE",
        body: request,
        // 200 when done at once (no archive kept), 202 when the worker makes the archive first (decision 0157).
        schema: adminUserDeletedSchema.or(adminUserDeletingSchema),
        timeoutMs: 120_000,
      }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: [...ADMIN_KEY, "user", id] });
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "users"] });
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "archives"] });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}
