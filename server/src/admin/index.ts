// The admin module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { archiveAndDelete, deletedAccountArchiveJob, startDeletedAccountArchiveSweep } from "./archives";
export { assertUnderCaps } from "./caps";
export { type HealthReport, startHealthReport } from "./health-report";
export { adminRoutes } from "./routes";
export { type AdminContext, adjustCredits, makeAdmin, makeAdminByClaim, updateUser } from "./service";
