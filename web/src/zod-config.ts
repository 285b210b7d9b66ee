// Imported first by main.tsx, before any schema exists: zod v4 otherwise probes for eval with `new Function`
// when it builds its first object schema, and under the app's strict CSP (no 'unsafe-eval') the browser
// reports that caught probe as a Content-Security-Policy violation on every page. Jitless zod parses the
// same, without generated code.
import { z } from "zod";

z.config({ jitless: true });
