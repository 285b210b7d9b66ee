// Which database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR.
// Its own module so the admin CLI and `npm run migrate` open the database without loading the whole app.
import path from "node:path";
import type { Config } from "../config";
import type { DatabaseTarget } from "./client";

export function databaseTarget(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? { url: config.databaseUrl, readCache: config.readCache }
    : { pgliteDir: path.join(config.dataDir, "pglite") };
}
