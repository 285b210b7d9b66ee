// The browser tests' mail: one real SMTP sink for the whole run (started by e2e/global-setup.ts on the fixed
// E2E_SMTP_PORT that the servers under test mail), and a small HTTP reader beside it, so specs running in
// any Playwright worker take the mails addressed to their own accounts. Each mail is handed out once.
import http from "node:http";
import { type ReceivedMail, startSmtpSink, type WaitForMailOptions } from "../../server/test/smtp-sink";

export { linkFrom } from "../../server/test/smtp-sink";

/** The SMTP port the servers under test mail, and the port the mailbox is read on (the next one). */
export const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
const mailboxPort = smtpPort + 1;

export interface Mailbox {
  /** The next mail to this address (whose subject matches, if asked) that no spec has taken yet. */
  waitForMail: (to: string, options?: WaitForMailOptions) => Promise<ReceivedMail>;
}

/** Starts the sink and its reader; resolves to a function that stops both. */
export async function startMailServer(): Promise<() => Promise<void>> {
  const sink = await startSmtpSink(smtpPort);
  const reader = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://mailbox");
    const to = url.searchParams.get("to") ?? "";
    const subject = url.searchParams.get("subject");
    // A short wait on the sink: the client asks again until its own deadline.
    sink.waitForMail(to, { ...(subject ? { subject: new RegExp(subject, "i") } : {}), timeoutMs: 500 }).then(
      (mail) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(mail));
      },
      () => {
        response.writeHead(204);
        response.end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    reader.once("error", reject);
    reader.listen(mailboxPort, "127.0.0.1", () => resolve());
  });
  return async () => {
    await new Promise<void>((resolve) => reader.close(() => resolve()));
    await sink.close();
  };
}

/** Reads the run's mailbox (started by the global setup). */
export function openMailbox(): Mailbox {
  return {
    async waitForMail(to, { subject, timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      const query = new URLSearchParams({ to, ...(subject ? { subject: subject.source } : {}) });
      while (Date.now() < deadline) {
        const response = await fetch(`http://127.0.0.1:${mailboxPort}/next?${query}`);
        if (response.status === 200) return (await response.json()) as ReceivedMail;
      }
      throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
    },
  };
}
