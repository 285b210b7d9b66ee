// A real SMTP server on a free local port that keeps every mail it receives, for tests.
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { to: string[]; raw: string; subject: string; text: string; html: string };

/** Decodes the quoted-printable or base64 body of one MIME part. */
function decodePart(part: string): { type: string; body: string } {
  const [head = "", ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join("\n\n");
  const type = /content-type:\s*([^;\r\n]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? "";
  const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === "base64")
    return { type, body: Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8") };
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return { type, body: Buffer.from(bytes, "latin1").toString("utf8") };
  }
  return { type, body };
}

function parse(raw: string, to: string[]): ReceivedMail {
  const subject = /^subject:\s*(.*)$/im.exec(raw)?.[1]?.trim() ?? "";
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1).map(decodePart) : [decodePart(raw)];
  return {
    to,
    raw,
    subject,
    text: parts.find((p) => p.type === "text/plain")?.body ?? "",
    html: parts.find((p) => p.type === "text/html")?.body ?? "",
  };
}

export type SmtpSink = {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail to this address (or one already received and not yet taken). */
  waitForMail: (to: string, timeoutMs?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

export async function startSmtpSink(): Promise<SmtpSink> {
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
        const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
        mails.push(parse(Buffer.concat(chunks).toString("utf8"), to));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitForMail(to, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
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

/** The first link in a mail's text that starts with the given prefix. */
export function linkFrom(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no ${prefix} link in mail: ${mail.text}`);
  return link;
}
