// Once per browser run: the SMTP sink the servers under test mail, shared by every worker (support/mailbox.ts).
import { startMailServer } from "./support/mailbox";

export default async function globalSetup(): Promise<() => Promise<void>> {
  return startMailServer();
}
