// A real SMTP server on a local port that keeps every mail it receives, for the server's tests and the
// browser tests alike (e2e/support/mailbox.ts runs one for them). Mails are decoded by mailparser, so any MIME
// the mailer writes (quoted-printable, base64, multipart, encoded headers) reads back as plain text.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface WaitForMailOptions {
  /** Only a mail whose subject matches. */
  subject?: RegExp;
  timeoutMs?: number;
}

export interface SmtpSink {
  url: string;
  mails: ReceivedMail[];
  /** The next mail to this address (whose subject matches, if asked), or one received and not yet taken. */
  waitForMail: (to: string, options?: WaitForMailOptions) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

async function parseMail(raw: Buffer, to: string[]): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw);
  return {
    to,
    raw: raw.toString("utf8"),
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    html: typeof parsed.html === "string" ? parsed.html : "",
  };
}

/** Listens on `port` (0: any free port; the chosen one is in `url`). */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
        parseMail(Buffer.concat(chunks), to).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    async waitForMail(to, { subject, timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find(
          (m) => !taken.has(m) && m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)),
        );
        if (mail) {
          taken.add(mail);
          return mail;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with the given address. */
export function linkFrom(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in mail: ${mail.text}`);
  return link;
}
