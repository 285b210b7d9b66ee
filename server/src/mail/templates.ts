// The mails the app sends, each with a text and an HTML part, in the player's language (decision 0155; English
// when they have not chosen one). Links point at APP_URL.
import { type Locale, RESET_LINK_TTL_MINUTES, VERIFY_LINK_TTL_HOURS } from "@storyverse/contract/accounts";
import type { Mail } from "./mailer";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** One mail's words; `name` is the player's username, the rest are the link's lifetimes. */
type MailWords = {
  subject: string;
  title: string;
  intro: (name: string) => string;
  action: string;
  /** The text part's line before the link. */
  linkLine: string;
  footnote: string;
};

type Catalogue = { verify: MailWords; reset: MailWords; pasteLink: string };

const CATALOGUES: Record<Locale, Catalogue> = {
  en: {
    verify: {
      subject: "Verify your Storyverse email",
      title: "Verify your email",
      intro: (name) =>
        `Hi ${name}, welcome to Storyverse! Confirm your email address to start your first story.`,
      action: "Verify Email",
      linkLine: "Verify your email:",
      footnote: `This link expires in ${VERIFY_LINK_TTL_HOURS} hours. If you did not sign up, ignore this mail.`,
    },
    reset: {
      subject: "Reset your Storyverse password",
      title: "Reset your password",
      intro: (name) => `Hi ${name}, someone (hopefully you) asked to reset your Storyverse password.`,
      action: "Reset Password",
      linkLine: "Choose a new password:",
      footnote: `This link expires in 1 hour (${RESET_LINK_TTL_MINUTES} minutes) and works once. If you did not ask, ignore this mail: your password stays the same.`,
    },
    pasteLink: "If the button does not work, paste this address into your browser:",
  },
  de: {
    verify: {
      subject: "Bestätige deine E-Mail-Adresse für Storyverse",
      title: "Bestätige deine E-Mail-Adresse",
      intro: (name) =>
        `Hallo ${name}, willkommen bei Storyverse! Bestätige deine E-Mail-Adresse, um deine erste Geschichte zu beginnen.`,
      action: "E-Mail bestätigen",
      linkLine: "Bestätige deine E-Mail-Adresse:",
      footnote: `Dieser Link läuft in ${VERIFY_LINK_TTL_HOURS} Stunden ab. Wenn du dich nicht registriert hast, ignoriere diese E-Mail.`,
    },
    reset: {
      subject: "Setze dein Storyverse-Passwort zurück",
      title: "Passwort zurücksetzen",
      intro: (name) => `Hallo ${name}, jemand (hoffentlich du) möchte dein Storyverse-Passwort zurücksetzen.`,
      action: "Passwort zurücksetzen",
      linkLine: "Wähle ein neues Passwort:",
      footnote: `Dieser Link läuft in 1 Stunde (${RESET_LINK_TTL_MINUTES} Minuten) ab und funktioniert einmal. Wenn du das nicht warst, ignoriere diese E-Mail: Dein Passwort bleibt gleich.`,
    },
    pasteLink: "Wenn der Button nicht funktioniert, füge diese Adresse in deinen Browser ein:",
  },
  es: {
    verify: {
      subject: "Verifica tu correo de Storyverse",
      title: "Verifica tu correo",
      intro: (name) =>
        `Hola, ${name}: ¡te damos la bienvenida a Storyverse! Confirma tu dirección de correo para empezar tu primera historia.`,
      action: "Verificar correo",
      linkLine: "Verifica tu correo:",
      footnote: `Este enlace caduca en ${VERIFY_LINK_TTL_HOURS} horas. Si no te has registrado, ignora este correo.`,
    },
    reset: {
      subject: "Restablece tu contraseña de Storyverse",
      title: "Restablece tu contraseña",
      intro: (name) =>
        `Hola, ${name}: alguien (esperamos que tú) ha pedido restablecer tu contraseña de Storyverse.`,
      action: "Restablecer contraseña",
      linkLine: "Elige una contraseña nueva:",
      footnote: `Este enlace caduca en 1 hora (${RESET_LINK_TTL_MINUTES} minutos) y funciona una sola vez. Si no lo has pedido, ignora este correo: tu contraseña no cambia.`,
    },
    pasteLink: "Si el botón no funciona, pega esta dirección en tu navegador:",
  },
};

function layout(locale: Locale, words: MailWords, intro: string, link: string): string {
  return `<!doctype html><html lang="${locale}"><body style="margin:0;background:#0b0b14;font-family:Helvetica,Arial,sans-serif;color:#e8e8f0">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:520px;background:#151525;border-radius:16px;padding:32px">
<tr><td style="font-size:22px;font-weight:700;color:#ffffff">Storyverse</td></tr>
<tr><td style="padding-top:16px;font-size:18px;font-weight:600">${escapeHtml(words.title)}</td></tr>
<tr><td style="padding-top:8px;font-size:15px;line-height:1.6;color:#c8c8d8">${escapeHtml(intro)}</td></tr>
<tr><td style="padding:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:linear-gradient(90deg,#8b5cf6,#ec4899);color:#ffffff;text-decoration:none;font-weight:600;padding:12px 24px;border-radius:10px">${escapeHtml(words.action)}</a></td></tr>
<tr><td style="font-size:13px;line-height:1.6;color:#9a9ab0">${escapeHtml(words.footnote)}<br>${escapeHtml(CATALOGUES[locale].pasteLink)}<br><a href="${escapeHtml(link)}" style="color:#a78bfa;word-break:break-all">${escapeHtml(link)}</a></td></tr>
</table></td></tr></table></body></html>`;
}

function linkMail(locale: Locale, words: MailWords, to: string, username: string, link: string): Mail {
  const intro = words.intro(username);
  return {
    to,
    subject: words.subject,
    text: `${intro}\n\n${words.linkLine} ${link}\n\n${words.footnote}\n`,
    html: layout(locale, words, intro, link),
  };
}

export function verificationMail(
  appUrl: string,
  to: string,
  username: string,
  token: string,
  locale: Locale | null = null,
): Mail {
  const lang = locale ?? "en";
  const link = `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return linkMail(lang, CATALOGUES[lang].verify, to, username, link);
}

export function passwordResetMail(
  appUrl: string,
  to: string,
  username: string,
  token: string,
  locale: Locale | null = null,
): Mail {
  const lang = locale ?? "en";
  const link = `${appUrl}/forgot-password?token=${encodeURIComponent(token)}`;
  return linkMail(lang, CATALOGUES[lang].reset, to, username, link);
}
