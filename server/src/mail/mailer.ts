// Outgoing mail: SMTP through nodemailer when SMTP_URL is set, otherwise each mail is written to the
// server log with its links, so a local install can finish sign-up without a mail server.
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

export function createLogMailer(log: Pick<FastifyBaseLogger, "info">, print = console.log): Mailer {
  return {
    kind: "log",
    send: async (mail) => {
      log.info({ to: mail.to, subject: mail.subject }, "mail written to the log (no SMTP_URL)");
      print(`\n----- mail to ${mail.to}: ${mail.subject} -----\n${mail.text}\n----- end of mail -----\n`);
    },
  };
}
