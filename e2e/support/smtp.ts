// The browser tests' SMTP sink: the app under test mails it (SMTP_URL in playwright.config.ts, on the
// fixed E2E_SMTP_PORT), and the tests read the verification and reset links out of what arrives. It is
// the server tests' own sink, so both suites decode mail the same way.
export { linkFrom, type SmtpSink, startSmtpSink } from "../../server/test/smtp-sink";
