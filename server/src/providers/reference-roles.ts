// References by role for painters that read them from the prompt (decision 0161): Seedream 4 (ModelArk and
// Replicate) and OpenAI's image edits take several pictures in order and follow a prompt that names them
// ("image 2"), so a role the player chose becomes a sentence after the prompt. Only content references (or
// none): the prompt goes as it is.
import type { ReferenceImage, ReferenceRole } from "./types";

const SAYS: Record<Exclude<ReferenceRole, "content">, string> = {
  style: "is a style reference: take its look (palette, light, medium), not its subject",
  character: "shows a character in the scene: keep their face, build and clothes",
};

/** The prompt with one sentence per style or character reference, naming each by its place (image 1, 2...). */
export function promptWithRoles(prompt: string, references: readonly ReferenceImage[]): string {
  const said = references.flatMap((reference, index) =>
    reference.role && reference.role !== "content" ? [`Image ${index + 1} ${SAYS[reference.role]}.`] : [],
  );
  return said.length ? `${prompt}\n\n${said.join(" ")}` : prompt;
}
