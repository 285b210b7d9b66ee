// Leaving with your data (decision 0143): start and follow the account's archive, and delete the account.
import {
  type AccountExport,
  accountExportResponseSchema,
  deleteAccountResponseSchema,
} from "@storyverse/contract/leave";
import { apiRequest } from "../../../lib/api-client";

/** POST /api/account/export: starts the archive, or answers the one being made. */
export async function startAccountExport(): Promise<AccountExport> {
  const body = await apiRequest("/api/account/export", {
    method: "POST",
    schema: accountExportResponseSchema,
  });
  return body.export;
}

/** GET /api/account/export/{id}: its progress and step, and once made its download link. */
export async function accountExport(id: string, signal?: AbortSignal): Promise<AccountExport> {
  const body = await apiRequest(`/api/account/export/${encodeURIComponent(id)}`, {
    schema: accountExportResponseSchema,
    ...(signal ? { signal } : {}),
  });
  return body.export;
}

/** DELETE /api/account, confirmed by the current password (a wrong one: 403, nothing deleted). */
export async function deleteAccount(password: string) {
  return apiRequest("/api/account", {
    method: "DELETE",
    body: { password },
    schema: deleteAccountResponseSchema,
    // Removing a large library's files takes a while.
    timeoutMs: 120_000,
  });
}
