// The leave module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { ACCOUNT_DELETE_RULE, closeAccount, deleteOwnAccount } from "./delete";
export {
  accountExportJob,
  makeAccountExport,
  startAccountArchiveSweep,
  throttledProgress,
  writeAccountArchive,
} from "./export";
export { leaveRoutes } from "./routes";
