// The server's and the contract's English messages reach a German or Spanish player in their language; a
// message the app does not know is shown as it came, never lost.
import {
  forgotPasswordMessage,
  oidcNotLinkedMessage,
  PASSWORD_MIN_LENGTH,
  passwordSignInOffMessage,
} from "@storyverse/contract/accounts";
import { describe, expect, it } from "vitest";
import { setLanguage } from "./i18n";
import { translateServerMessage } from "./server-messages";

describe("server messages in the interface's language", () => {
  it("leaves English as it is", () => {
    expect(translateServerMessage("Story not found")).toBe("Story not found");
  });

  it("translates a known message, and one with values in it, keeping the values", async () => {
    await setLanguage("de");
    expect(translateServerMessage("Story not found")).toBe("Geschichte nicht gefunden");
    expect(translateServerMessage(`Password must be at least ${PASSWORD_MIN_LENGTH} characters`)).toBe(
      `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein`,
    );
    await setLanguage("es");
    expect(translateServerMessage(forgotPasswordMessage("ana@example.org"))).toBe(
      "Si existe una cuenta con ana@example.org, te hemos enviado un enlace para restablecer la contraseña.",
    );
    expect(
      translateServerMessage(
        "Insufficient credits: this costs 1.5 and you have 0.5. Top up to continue creating.",
      ),
    ).toBe("Créditos insuficientes: esto cuesta 1.5 y tienes 0.5. Recarga para seguir creando.");
  });

  it("translates the single sign-on refusals, keeping the provider's name", async () => {
    await setLanguage("de");
    expect(translateServerMessage(oidcNotLinkedMessage("Acme ID"))).toBe(
      "Dieses Konto meldet sich nicht mit Acme ID an. Bitte bestätige mit deinem Passwort.",
    );
    await setLanguage("es");
    expect(translateServerMessage(passwordSignInOffMessage("Acme ID"))).toBe(
      "Aquí el inicio de sesión con contraseña está desactivado. Inicia sesión con Acme ID.",
    );
  });

  it("shows a message it does not know as it came", async () => {
    await setLanguage("de");
    expect(translateServerMessage("A brand-new server message")).toBe("A brand-new server message");
  });

  it("accents even an unknown message in the pseudo-language, so the check only flags the app's own strings", async () => {
    await setLanguage("en-XA");
    expect(translateServerMessage("Story not found")).toMatch(/^⟦Šţöŕý ñöţ ƒöûñð ·+⟧$/);
  });
});
