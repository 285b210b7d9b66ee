// Outgoing mail: SMTP through nodemailer when SMTP_URL is set, otherwise each mail is printed whole on the
// server's output with its links, so a local install can finish sign-up without a mail server.
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export type Mail = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  kind: "smtp" | "log";
  send: (mail: Mail) => Promise<void>;
};

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: "smtp",
    send: async (mail) => {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/**
 * Without SMTP: on a local install each mail is printed whole (address, links) on standard output, beside the
 * log's lines but not one of them: that print is the mail's only delivery, and README sends the owner there
 * for their links. The log's own line names neither the address nor a link. With `printMails` false (APP_ENV
 * production, where anyone reading the output could use a reset link) nothing of the mail is printed and a
 * warning says it was not sent. Decision 0124.
 */
export function createLogMailer(
  log: Pick<FastifyBaseLogger, "info" | "warn">,
  { printMails, print = console.log }: { printMails: boolean; print?: (text: string) => void },
): Mailer {
  return {
    kind: "log",
    send: async (mail) => {
      if (!printMails) {
        log.warn(
          { subject: mail.subject },
          "a mail was not sent: no SMTP_URL (its links are not printed in production)",
        );
        return;
      }
      log.info({ subject: mail.subject }, "mail printed below (no SMTP_URL)");
      print(`\n----- mail to ${mail.to}: ${mail.subject} -----\n${mail.text}\n----- end of mail -----\n`);
    },
  };
}
