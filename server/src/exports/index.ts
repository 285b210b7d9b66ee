// The exports module's public surface: what other modules and the root may import from it. Every other file
// in the folder is the module's own (the module-surface-only rule in .dependency-cruiser.cjs, decision 0172).
export { fileStem, PROGRESS_EVERY_MS } from "./book";
export { exportsBranchPart } from "./deleted-story";
export { makeExport, storyExportJob } from "./export-job";
export { makeFilm, storyFilmJob } from "./film-job";
export { exportRoutes } from "./routes";
