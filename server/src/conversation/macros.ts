// The placeholder names cards are written with (spec V2: `{{char}}`/`<BOT>` and `{{user}}`/`<USER>`,
// case-insensitive), replaced by the character's and the player's names.
// They live with the narrator, which fills them in every turn; the card importer (interop) uses them too.

const MACRO = /\{\{(char|user)\}\}|<(bot|user)>/gi;

export function replaceMacros(text: string, names: { char: string; user: string }): string {
  // One pass, so a name that itself holds a macro ("<USER>'s twin") is inserted as it is, never replaced
  // again; and a function replacement, so a name holding "$&" or "$1" is inserted literally.
  return text.replace(MACRO, (_macro, braced: string | undefined, angled: string | undefined) => {
    const which = (braced ?? angled ?? "").toLowerCase();
    return which === "user" ? names.user : names.char;
  });
}
