// A real SMTP server for the browser tests: the app under test mails it (SMTP_URL in
// playwright.config.ts), and the tests read the verification and reset links out of what arrives.
// MIME is decoded here by hand (quoted-printable and base64 parts), which is all our mails use.
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
}

function decodePart(part: string): { type: string; body: string } {
  const [head = "", ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? "";
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === "base64") {
    return { type, body: Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") };
  }
  if (encoding === "quoted-printable") {
    // Soft line breaks go, =XX escapes become bytes, and the bytes are read as UTF-8.
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return { type, body: Buffer.from(bytes, "latin1").toString("utf8") };
  }
  return { type, body };
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const subject = /^subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? "";
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1).map(decodePart) : [decodePart(raw)];
  return {
    to,
    raw,
    subject,
    text: parts.find((part) => part.type === "text/plain")?.body ?? "",
    html: parts.find((part) => part.type === "text/html")?.body ?? "",
  };
}

export interface SmtpSink {
  mails: ReceivedMail[];
  /** The next mail to this address whose subject matches (or one already received and not yet taken). */
  waitForMail: (to: string, options?: { subject?: RegExp; timeoutMs?: number }) => Promise<ReceivedMail>;
  close: () => Promise<void>;
}

export async function startSmtpSink(port: number): Promise<SmtpSink> {
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
        mails.push(parseMail(Buffer.concat(chunks).toString("utf8"), to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
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
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`no mail for ${to} within ${timeoutMs} ms`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text part that starts with the given address. */
export function linkFrom(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in mail: ${mail.text}`);
  return link;
}
