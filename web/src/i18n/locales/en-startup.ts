// The English the first screens need (decision 0155): the shell's and shared components' words, the landing
// page, signing in and the server's messages. Bundled with the app's first chunk; the rest loads beside it.
import accounts from "./en/accounts.json";
import common from "./en/common.json";
import landing from "./en/landing.json";
import messages from "./en/messages.json";

export const enStartup = { common, landing, accounts, messages };
