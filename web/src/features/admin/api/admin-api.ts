// The admin console's calls (decision 0140): accounts (search, one account, changes, credits, sessions) and
// the install's spending caps. Each answers 404 to anyone but an administrator.
import {
  type AdminAuditResponse,
  type AdminCaps,
  type AdminCapsResponse,
  type AdminCreditsRequest,
  type AdminUser,
  type AdminUsersResponse,
  type AdminUserUpdate,
  adminAuditResponseSchema,
  adminCapsResponseSchema,
  adminSessionsRevokedSchema,
  adminUserSchema,
  adminUsersResponseSchema,
} from "@storyverse/contract/admin";
import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { z } from "zod";
import { apiRequest } from "../../../lib/api-client";

const ADMIN_KEY = ["admin"] as const;
const usersKey = (q: string) => [...ADMIN_KEY, "users", q] as const;
const userKey = (id: string) => [...ADMIN_KEY, "user", id] as const;
const capsKey = [...ADMIN_KEY, "caps"] as const;
const auditKey = [...ADMIN_KEY, "audit"] as const;

/** One page of a console search (users, share links): `q` and the cursor as query parameters when set. */
export function fetchSearchPage<T>(
  path: string,
  schema: z.ZodType<T>,
  search: {
    q: string;
    cursor: string | undefined;
    signal?: AbortSignal;
    timeoutMs: number;
    extra?: Record<string, string>;
  },
): Promise<T> {
  const params = new URLSearchParams(search.extra);
  if (search.q) params.set("q", search.q);
  if (search.cursor) params.set("cursor", search.cursor);
  return apiRequest(`${path}?${params}`, { schema, signal: search.signal, timeoutMs: search.timeoutMs });
}

function fetchUsers(
  q: string,
  cursor: string | undefined,
  signal?: AbortSignal,
): Promise<AdminUsersResponse> {
  return fetchSearchPage("/api/admin/users", adminUsersResponseSchema, {
    q,
    cursor,
    signal,
    timeoutMs: 15_000,
  });
}

export function useAdminUsers(q: string) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: usersKey(q),
      queryFn: ({ pageParam, signal }) => fetchUsers(q, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  );
}

export function useAdminUser(id: string | null) {
  return useQuery({
    queryKey: userKey(id ?? ""),
    queryFn: ({ signal }) =>
      apiRequest(`/api/admin/users/${encodeURIComponent(id ?? "")}`, {
        schema: adminUserSchema,
        signal,
        timeoutMs: 15_000,
      }),
    enabled: id !== null,
  });
}

/** Every change to an account answers with the account as it is now: the console shows that at once. */
function useAccountChange<Input>(id: string, send: (input: Input) => Promise<AdminUser>) {
  const queryClient = useQueryClient();
  return useMutation<AdminUser, Error, Input>({
    mutationFn: send,
    onSuccess: (user) => {
      queryClient.setQueryData(userKey(id), user);
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "users"] });
      void queryClient.invalidateQueries({ queryKey: capsKey });
      // Enabling an account cancels its failed deletion: the Archives tab loses that row.
      void queryClient.invalidateQueries({ queryKey: [...ADMIN_KEY, "archives"] });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

export function useUpdateUser(id: string) {
  return useAccountChange(id, (update: AdminUserUpdate) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(id)}`, {
      method: "PUT",
      body: update,
      schema: adminUserSchema,
      timeoutMs: 15_000,
    }),
  );
}

export function useAdjustCredits(id: string) {
  return useAccountChange(id, (request: AdminCreditsRequest) =>
    apiRequest(`/api/admin/users/${encodeURIComponent(id)}/credits`, {
      method: "POST",
      body: request,
      schema: adminUserSchema,
      timeoutMs: 15_000,
    }),
  );
}

export function useRevokeSessions(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      apiRequest(`/api/admin/users/${encodeURIComponent(id)}/sessions/revoke`, {
        method: "POST",
        schema: adminSessionsRevokedSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKey(id) });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

export function useAdminCaps() {
  return useQuery({
    queryKey: capsKey,
    queryFn: ({ signal }) =>
      apiRequest("/api/admin/caps", { schema: adminCapsResponseSchema, signal, timeoutMs: 15_000 }),
  });
}

export function useSetCaps() {
  const queryClient = useQueryClient();
  return useMutation<AdminCapsResponse, Error, AdminCaps>({
    mutationFn: (caps) =>
      apiRequest("/api/admin/caps", {
        method: "PUT",
        body: caps,
        schema: adminCapsResponseSchema,
        timeoutMs: 15_000,
      }),
    onSuccess: (caps) => {
      queryClient.setQueryData(capsKey, caps);
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

function fetchAudit(cursor: string | undefined, signal?: AbortSignal): Promise<AdminAuditResponse> {
  const params = new URLSearchParams();
  if (cursor) params.set("cursor", cursor);
  return apiRequest(`/api/admin/audit?${params}`, {
    schema: adminAuditResponseSchema,
    signal,
    timeoutMs: 15_000,
  });
}

/** The audit log, newest first, a page at a time. */
export function useAdminAudit() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: auditKey,
      queryFn: ({ pageParam, signal }) => fetchAudit(pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
  );
}
