// The most common English words (about 200). A Story Card trigger that is one of them (or shorter than three
// letters) wakes the card on almost every message, so the card editor warns before saving one; the offline
// card drafter never takes one for a name. Advice only: the server accepts such triggers.
import { regexTrigger } from "./story-cards";

const COMMON = `the be to of and a in that have i it for not on with he as you do at this but his by from they we
say her she or an will my one all would there their what so up out if about who get which go me when make can
like time no just him know take people into year your good some could them see other than then now look only come
its over think also back after use two how our work first well way even new want because any these give day most
us is was are were been has had did said went got made came saw looked took told asked felt seemed turned
there's here where why very more much many such each every both few own same too off down again still never
always ever yet once before under while through between against around without within upon nothing something
anything everything someone anyone everyone nobody man woman men women thing things place way eyes hand hands
head face voice door room night light dark long old little great last next right left small large yes oh`;

export const COMMON_WORDS: ReadonlySet<string> = new Set(COMMON.split(/\s+/).filter(Boolean));

/** Triggers that would wake a card on almost every message: common words and anything under 3 letters. */
export function overBroadTriggers(triggers: readonly string[]): string[] {
  return triggers.filter((trigger) => {
    const text = trigger.trim();
    // A /regex/ trigger says exactly what it matches; the player chose it.
    if (regexTrigger(text)) return false;
    return text.length < 3 || COMMON_WORDS.has(text.toLowerCase());
  });
}
