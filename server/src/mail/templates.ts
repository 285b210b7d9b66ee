// The mails the app sends, each with a text and an HTML part. Links point at APP_URL.
import { RESET_LINK_TTL_MINUTES, VERIFY_LINK_TTL_HOURS } from "@storyverse/contract/accounts";
import type { Mail } from "./mailer";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

function layout(title: string, intro: string, action: string, link: string, footnote: string): string {
  return `<!doctype html><html><body style="margin:0;background:#0b0b14;font-family:Helvetica,Arial,sans-serif;color:#e8e8f0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#151525;border-radius:16px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:#ffffff">Storyverse</td></tr>
<tr><td style="padding-top:16px;font-size:18px;font-weight:600">${escapeHtml(title)}</td></tr>
<tr><td style="padding-top:8px;font-size:15px;line-height:1.6;color:#c8c8d8">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:linear-gradient(90deg,#8b5cf6,#ec4899);color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:10px">${escapeHtml(action)}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.6;color:#9a9ab0">${escapeHtml(footnote)}<br>If the button does not work, paste this address into your browser:<br><a href="${escapeHtml(link)}" style="color:#a78bfa;word-break:break-all">${escapeHtml(link)}</a></td></tr>
</table></td></tr></table></body></html>`;
}

export function verificationMail(appUrl: string, to: string, username: string, token: string): Mail {
  const link = `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  const intro = `Hi ${username}, welcome to Storyverse! Confirm your email address to start your first story.`;
  const footnote = `This link expires in ${VERIFY_LINK_TTL_HOURS} hours. If you did not sign up, ignore this mail.`;
  return {
    to,
    subject: "Verify your Storyverse email",
    text: `${intro}\n\nVerify your email: ${link}\n\n${footnote}\n`,
    html: layout("Verify your email", intro, "Verify Email", link, footnote),
  };
}

export function passwordResetMail(appUrl: string, to: string, username: string, token: string): Mail {
  const link = `${appUrl}/forgot-password?token=${encodeURIComponent(token)}`;
  const intro = `Hi ${username}, someone (hopefully you) asked to reset your Storyverse password.`;
  const footnote = `This link expires in 1 hour (${RESET_LINK_TTL_MINUTES} minutes) and works once. If you did not ask, ignore this mail: your password stays the same.`;
  return {
    to,
    subject: "Reset your Storyverse password",
    text: `${intro}\n\nChoose a new password: ${link}\n\n${footnote}\n`,
    html: layout("Reset your password", intro, "Reset Password", link, footnote),
  };
}
