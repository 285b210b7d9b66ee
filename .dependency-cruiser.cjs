// dependency-cruiser (`npm run lint:deps`, part of `npm run lint` and so of `npm test`): the import rules
// docs/architecture.md describes ("Rules the linter keeps"), checked over the source instead of trusted.
// Each rule fails the lint when an import breaks it; `npx depcruise --help` explains the options.
const { readdirSync } = require("node:fs");
const path = require("node:path");

/** Server folders that are plumbing every module may use, not modules: the rest of server/src/* are modules. */
const INFRASTRUCTURE = new Set(["db", "http", "jobs", "mail", "platform", "providers"]);
const modules = readdirSync(path.join(__dirname, "server/src"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !INFRASTRUCTURE.has(entry.name))
  .map((entry) => entry.name);
const anyModule = (except = []) =>
  `^server/src/(${modules.filter((name) => !except.includes(name)).join("|")})/`;

/** Test code: the tiers' files beside the code, and the test folders' helpers, setup and fakes. */
const TESTS = "(\\.(test|spec)\\.tsx?$|^server/test/|^web/src/test/|^e2e/|^bench/)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycle anywhere: a cycle makes load order matter and ties its files into one piece.",
      from: { path: "^(server/src|contract/src|web/src)/" },
      to: { circular: true },
    },
    {
      name: "module-surface-only",
      severity: "error",
      comment:
        "A module's index.ts is its whole public surface: another module, or the root composing them, imports " +
        "that and no other file of it, so a module's other files can change without its importers. Plumbing " +
        "(db, http, jobs, mail, platform, providers) is no module and may reach a module's file, and so may " +
        "context.ts, the type every module is handed: through media's surface it would load the whole module.",
      from: {
        path: "^server/src/([^/]+)",
        pathNot: [`^server/src/(${[...INFRASTRUCTURE].join("|")})/`, "^server/src/context\\.ts$", TESTS],
      },
      to: { path: anyModule(), pathNot: ["^server/src/$1/", "^server/src/[^/]+/index\\.ts$"] },
    },
    {
      name: "event-hub-knows-no-module",
      severity: "error",
      comment:
        "The event hub is the lowest piece of the live path: modules hand it their event builders (app.ts); " +
        "it imports no module (its own events module aside) and nothing of HTTP.",
      from: { path: "^server/src/events/hub\\.ts$" },
      to: { path: [anyModule(["events"]), "^server/src/http/"] },
    },
    {
      name: "platform-knows-no-module",
      severity: "error",
      comment:
        "Platform code (clock, signals, rate limits, Redis, media tools) knows no module and nothing of " +
        "HTTP: the HTTP edge maps its errors (a RateLimited becomes a 429 in http/errors.ts).",
      from: { path: "^server/src/platform/", pathNot: TESTS },
      to: { path: [anyModule(), "^server/src/http/"] },
    },
    {
      name: "only-routes-know-http-errors",
      severity: "error",
      comment:
        "Services throw domain errors (platform/errors.ts), which know no HTTP: they run in job workers too. " +
        "Only a module's routes (routes.ts, *-routes.ts) and the HTTP edge know HTTP errors.",
      from: { path: anyModule(), pathNot: ["(^|/)(routes|[^/]+-routes)\\.ts$", TESTS] },
      to: { path: "^server/src/http/errors\\.ts$" },
    },
    {
      name: "routes-call-services-only",
      severity: "error",
      comment:
        "A route calls its module's services, never a repo: the rules and transactions live in the services.",
      from: { path: "routes\\.ts$", pathNot: TESTS },
      to: { path: "repo\\.ts$" },
    },
    {
      name: "web-feature-imports-no-feature",
      severity: "error",
      comment:
        "A web feature (web/src/features/<name>/) never imports another feature: what two features share lives " +
        "in web/src/shared, web/src/lib or web/src/components, and the app layer (web/src/app) composes features.",
      from: { path: "^web/src/features/([^/]+)/" },
      to: { path: "^web/src/features/", pathNot: "^web/src/features/$1/" },
    },
    {
      name: "web-feature-imports-no-app",
      severity: "error",
      comment:
        "A web feature never imports the app layer (web/src/app): the contexts it reads (auth, banner, view, " +
        "connection, quota prompt) live in web/src/shared, and the app hands it anything else as props.",
      from: { path: "^web/src/features/" },
      to: { path: "^web/src/app/" },
    },
    {
      name: "web-shared-imports-no-feature-or-app",
      severity: "error",
      comment:
        "The shared layers (web/src/shared, web/src/lib, web/src/components) sit below the features and the app: " +
        "they import neither, so any feature may use them without pulling in another.",
      from: { path: "^web/src/(shared|lib|components)/" },
      to: { path: "^web/src/(features|app)/" },
    },
    {
      name: "web-lib-and-components-import-no-shared",
      severity: "error",
      comment:
        "web/src/lib (helpers and the API client) and web/src/components (UI pieces) are the bottom layer: they " +
        "import nothing of web/src/shared, whose contexts and modules are built on them.",
      from: { path: "^web/src/(lib|components)/" },
      to: { path: "^web/src/shared/" },
    },
    {
      name: "no-tests-in-source",
      severity: "error",
      comment: "Source never imports a test, a test helper or a fake: they stay out of the running app.",
      from: { path: "^(server/src|contract/src|web/src)/", pathNot: TESTS },
      to: { path: TESTS },
    },
  ],
  options: {
    // Type-only imports count: a cycle through types is still two files that cannot be read apart.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(server/src|server/test|contract/src|web/src)/",
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
