// The mailer without SMTP (decision 0124): a local install prints each mail whole for its owner, beside the
// log; the log's own lines never name the address or a link, and production prints nothing of a mail.
import { describe, expect, it } from "vitest";
import { createLogMailer } from "./mailer";
import { passwordResetMail } from "./templates";

function capture() {
  const lines: string[] = [];
  const log = {
    info: (fields: object, msg?: string) => void lines.push(JSON.stringify({ ...fields, msg })),
    warn: (fields: object, msg?: string) => void lines.push(JSON.stringify({ ...fields, msg })),
  };
  return { lines, log };
}

const mail = passwordResetMail("http://app.test", "pat@example.org", "pat", "r3set-t0ken-value");

describe("the mailer without SMTP", () => {
  it("prints a local install's mail with its link, and logs neither the address nor the link", async () => {
    const { lines, log } = capture();
    const printed: string[] = [];
    await createLogMailer(log, { printMails: true, print: (text) => void printed.push(text) }).send(mail);
    expect(printed.join("")).toContain("http://app.test/forgot-password?token=r3set-t0ken-value");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("pat@example.org");
    expect(lines[0]).not.toContain("r3set-t0ken-value");
  });

  it("prints nothing of a mail in production, and warns that it was not sent", async () => {
    const { lines, log } = capture();
    const printed: string[] = [];
    await createLogMailer(log, { printMails: false, print: (text) => void printed.push(text) }).send(mail);
    expect(printed).toEqual([]);
    expect(lines.join("")).toContain("a mail was not sent: no SMTP_URL");
    expect(lines.join("")).not.toContain("pat@example.org");
    expect(lines.join("")).not.toContain("r3set-t0ken-value");
  });
});
