// What the pseudo-language shows that is not translated (decision 0155): in en-XA and ar-XB every interface
// string has accented letters, so plain ASCII words left on screen are strings that skipped i18n. User and AI
// content (marked data-user-text), server messages the app does not know (data-server-text), keyboard keys
// and the product's name are not interface text. Also reports an interface string a layout cut off: the
// pseudo-language's closing fence is out of its box.
import type { Page } from "@playwright/test";

export interface LanguageFindings {
  untranslated: string[];
  clipped: string[];
}

export async function findUntranslated(
  page: Page,
  userText: readonly string[] = [],
): Promise<LanguageFindings> {
  return page.evaluate((known) => {
    const untranslated = new Set<string>();
    const clipped = new Set<string>();
    // An element in another language (the language picker names each language in itself) is not this one's.
    const own = document.documentElement.lang;
    const foreign = (el: Element) => !!el.closest(`[lang]:not([lang="${own}"])`);
    const skip = (el: Element | null) =>
      !!el?.closest("[data-user-text],[data-server-text],script,style,noscript,kbd,code,svg,[hidden]") ||
      (!!el && foreign(el));
    const visible = (el: Element) => {
      const box = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return box.width > 0 && box.height > 0 && style.visibility !== "hidden" && style.display !== "none";
    };
    const leftover = (text: string) => {
      let rest = text;
      for (const value of [...known, "Storyverse"]) rest = rest.split(value).join(" ");
      return /[A-Za-z]{2,}/.test(rest);
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const parent = node.parentElement;
      if (!text || !parent || skip(parent) || !visible(parent)) continue;
      if (leftover(text)) untranslated.add(text);
    }
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (skip(el)) continue;
      for (const name of ["aria-label", "title", "placeholder", "alt", "aria-description"]) {
        const value = el.getAttribute(name)?.trim();
        if (value && leftover(value)) untranslated.add(`${name}="${value}"`);
      }
      if (!visible(el)) continue;
      const ownText = Array.from(el.childNodes)
        .filter((n) => n.nodeType === Node.TEXT_NODE)
        .map((n) => n.textContent ?? "")
        .join("");
      if (!ownText.includes("⟦")) continue;
      // Screen-reader-only text is meant to have no box; a preview that trims prose by design (a caption, an
      // excerpt) is not a control: only the words of controls and headings must fit.
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (
        !el.closest(
          "button, a, label, legend, h1, h2, h3, h4, th, [role=menuitem], [role=tab], [role=option]",
        )
      )
        continue;
      const style = getComputedStyle(el);
      if (style.clipPath === "inset(50%)" || style.clip === "rect(0px, 0px, 0px, 0px)") continue;
      const cuts =
        style.overflowX !== "visible" ||
        style.textOverflow === "ellipsis" ||
        style.webkitLineClamp !== "none";
      const over = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (cuts && over && style.overflowX !== "auto" && style.overflowY !== "auto")
        clipped.add(ownText.trim());
    }
    return { untranslated: [...untranslated], clipped: [...clipped] };
  }, userText);
}
