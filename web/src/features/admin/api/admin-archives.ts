// The console's archives of deleted accounts (decision 0157): the list (a page at a time), one archive followed
// while its deletion runs, a signed download link (audited by the server), a failed deletion retried, and an
// archive removed early or a failed deletion cancelled. Each answers 404 to anyone but an administrator.
import {
  type AdminArchivesResponse,
  adminArchiveDownloadSchema,
  adminArchiveRemovedSchema,
  adminArchiveResponseSchema,
  adminArchivesResponseSchema,
} from "@storyverse/contract/admin";
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { fetchSearchPage } from "./admin-api";

const ADMIN_KEY = ["admin"] as const;
const archivesKey = [...ADMIN_KEY, "archives"] as const;
const auditKey = [...ADMIN_KEY, "audit"] as const;
/** How often the list looks again while a deletion is being made. */
const PENDING_POLL_MS = 2_000;

const pending = (data: { pages: AdminArchivesResponse[] } | undefined) =>
  data?.pages.some((page) =>
    page.archives.some((archive) => archive.status === "queued" || archive.status === "building"),
  ) ?? false;

export function useAdminArchives() {
  return useInfiniteQuery({
    ...infiniteQueryOptions({
      queryKey: archivesKey,
      queryFn: ({ pageParam, signal }) =>
        fetchSearchPage("/api/admin/archives", adminArchivesResponseSchema, {
          q: "",
          cursor: pageParam,
          signal,
          timeoutMs: 15_000,
        }),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.next_cursor ?? undefined,
    }),
    refetchInterval: (query) => (pending(query.state.data) ? PENDING_POLL_MS : false),
  });
}

function useArchiveAction<T>(run: (id: string) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: archivesKey });
      void queryClient.invalidateQueries({ queryKey: auditKey });
    },
  });
}

const archivePath = (id: string) => `/api/admin/archives/${encodeURIComponent(id)}`;

/** Asks for a signed link (the server writes the download to the audit log) and follows it as a download. */
export function useDownloadArchive() {
  return useArchiveAction(async (id: string) => {
    const link = await apiRequest(`${archivePath(id)}/download`, {
      method: "POST",
      schema: adminArchiveDownloadSchema,
      timeoutMs: 15_000,
    });
    const anchor = document.createElement("a");
    anchor.href = link.download_url;
    anchor.download = link.filename;
    document.body.append(anchor);
    anchor.click();
    anchor.remove();
    return link;
  });
}

export function useRetryDeletion() {
  return useArchiveAction((id: string) =>
    apiRequest(`${archivePath(id)}/retry`, {
      method: "POST",
      schema: adminArchiveResponseSchema,
      timeoutMs: 15_000,
    }),
  );
}

/** Removes a kept archive early, or cancels a failed deletion (the account stays disabled). */
export function useRemoveArchive() {
  return useArchiveAction((id: string) =>
    apiRequest(archivePath(id), {
      method: "DELETE",
      body: {},
      schema: adminArchiveRemovedSchema,
      timeoutMs: 15_000,
    }),
  );
}
