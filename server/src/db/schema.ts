// The Drizzle schema: every table of every module, one migration set for PGlite and PostgreSQL.
// Each table belongs to the module named in its comment; other modules reach it through that module's service.
import { pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** newsletter: addresses left in the landing page's email capture box. */
export const newsletterSignups = pgTable("newsletter_signups", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
