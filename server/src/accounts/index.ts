// The accounts module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { sendAccountLinkJob } from "./jobs";
export { accountLimitsFor } from "./limits";
export { deleteUserRow, findUserByEmail, findUserById, listUsers } from "./repo";
export { accountRoutes } from "./routes";
export { digestToken, newToken, verifyPassword } from "./secrets";
export {
  type AccountAdminFields,
  AccountDisabled,
  accountByEmail,
  accountById,
  accountSessions,
  changeAccount,
  endSessionsEverywhere,
  type LoginGuard,
  login,
  logout,
  markEmailVerified,
  publicUsername,
  registerVerified,
  requirePasswordReset,
  searchAccounts,
  sendAccountLink,
  startSession,
  type UserRow,
} from "./service";
export { createSessionCache, followRevocations, type SessionCache } from "./session-cache";
export { type AccountsContext, authenticate, sessionIsLive } from "./sessions";
