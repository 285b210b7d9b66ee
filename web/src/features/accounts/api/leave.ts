// Leaving with your data (decision 0143): start and follow the account's archive, and delete the account (by
// its password, or by a fresh sign-in at the OIDC provider: decision 0158).
import {
  type AccountExport,
  accountExportResponseSchema,
  deleteAccountResponseSchema,
  type OidcDeleteOption,
  oidcDeleteOptionSchema,
  oidcDeleteStartSchema,
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

/** GET /api/auth/oidc/delete-account: whether this account may confirm its deletion at the provider. */
export function oidcDeleteOption(signal?: AbortSignal): Promise<OidcDeleteOption> {
  return apiRequest("/api/auth/oidc/delete-account", {
    schema: oidcDeleteOptionSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * POST /api/auth/oidc/delete-account: the provider's sign-in page for the browser to visit; the server deletes
 * the account when the fresh sign-in comes back, and the app lands at `/auth/oidc#deleted=1`.
 */
export async function startOidcDelete(): Promise<string> {
  const body = await apiRequest("/api/auth/oidc/delete-account", {
    method: "POST",
    schema: oidcDeleteStartSchema,
  });
  return body.url;
}
