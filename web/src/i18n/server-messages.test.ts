// The server's and the contract's English messages reach a German or Spanish player in their language; a
// message the app does not know is shown as it came, never lost.
import {
  forgotPasswordMessage,
  oidcNotLinkedMessage,
  PASSWORD_MIN_LENGTH,
  passwordSignInOffMessage,
} from "@storyverse/contract/accounts";
import { GROUP_MAX_CHARACTERS, GROUP_MIN_CHARACTERS } from "@storyverse/contract/generation-settings";
import { CLIP_MAX_SECONDS } from "@storyverse/contract/media-clip";
import { CARD_REFERENCES_MAX, TOO_MANY_CARD_REFERENCES_DETAIL } from "@storyverse/contract/story-cards";
import { NOT_THIS_TURNS_LINE_DETAIL } from "@storyverse/contract/story-craft";
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

  it("translates a clip's refusals and its job's failure, keeping the numbers and the service's name", async () => {
    await setLanguage("de");
    expect(
      translateServerMessage(
        `This clip is 18 seconds long; a clip can be extended up to ${CLIP_MAX_SECONDS} seconds.`,
      ),
    ).toBe(
      `Dieser Clip ist 18 Sekunden lang; ein Clip kann auf höchstens ${CLIP_MAX_SECONDS} Sekunden verlängert werden.`,
    );
    expect(translateServerMessage("The video service could not make this clip. Please try again.")).toBe(
      "Der Videodienst konnte diesen Clip nicht erstellen. Bitte versuche es erneut.",
    );
    await setLanguage("es");
    expect(
      translateServerMessage(
        `This clip is 18 seconds long; a clip can be extended up to ${CLIP_MAX_SECONDS} seconds.`,
      ),
    ).toBe(`Este clip dura 18 segundos; un clip se puede alargar hasta ${CLIP_MAX_SECONDS} segundos.`);
    expect(
      translateServerMessage(
        "The configured video service (BytePlus) cannot follow a camera move: leave the camera empty.",
      ),
    ).toBe(
      "El servicio de vídeo configurado (BytePlus) no puede seguir un movimiento de cámara: deja vacía la cámara.",
    );
  });

  it("translates a group scene's refusals, keeping the sizes and the character's name", async () => {
    const tooFew = `A group scene holds ${GROUP_MIN_CHARACTERS} to ${GROUP_MAX_CHARACTERS} of this story's cards: send at least ${GROUP_MIN_CHARACTERS} ids in character_ids`;
    await setLanguage("de");
    expect(translateServerMessage(tooFew)).toBe(
      `Eine Gruppenszene umfasst ${GROUP_MIN_CHARACTERS} bis ${GROUP_MAX_CHARACTERS} Karten dieser Geschichte: Sende mindestens ${GROUP_MIN_CHARACTERS} IDs in character_ids`,
    );
    expect(translateServerMessage("speaker_id: Mira is muted in this scene; unmute them first")).toBe(
      "speaker_id: Mira ist in dieser Szene stumm geschaltet; hebe zuerst die Stummschaltung auf",
    );
    await setLanguage("es");
    expect(translateServerMessage(tooFew)).toBe(
      `Una escena de grupo reúne de ${GROUP_MIN_CHARACTERS} a ${GROUP_MAX_CHARACTERS} tarjetas de esta historia: envía al menos ${GROUP_MIN_CHARACTERS} ids en character_ids`,
    );
    expect(translateServerMessage("Every character of this scene is muted; unmute one to play")).toBe(
      "Todos los personajes de esta escena están silenciados; quita el silencio a uno para jugar",
    );
  });

  it("translates the turn-media and card-reference refusals", async () => {
    await setLanguage("de");
    expect(translateServerMessage(NOT_THIS_TURNS_LINE_DETAIL)).toBe(
      "Dieses Bild ist nicht aus dem Bild dieses Zugs entstanden: Ein Zug kann nur eine Bearbeitung seines eigenen Bildes zeigen oder das Bild, aus dem es entstanden ist.",
    );
    expect(translateServerMessage(TOO_MANY_CARD_REFERENCES_DETAIL)).toBe(
      `references: Eine Karte hat höchstens ${CARD_REFERENCES_MAX} Referenzbilder.`,
    );
    await setLanguage("es");
    expect(translateServerMessage(NOT_THIS_TURNS_LINE_DETAIL)).toBe(
      "Esta imagen no se hizo a partir de la imagen de este turno: un turno solo puede mostrar una edición de su propia imagen o la imagen de la que salió.",
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
