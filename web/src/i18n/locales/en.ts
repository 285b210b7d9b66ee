// Every namespace of the English source (decision 0155): one JSON file per feature that owns it, in two chunks
// (the first screens' and the signed-in app's). The whole catalogue types t() and is what translations match.
import { enApp } from "./en-app";
import { enStartup } from "./en-startup";

export const en = { ...enStartup, ...enApp };
