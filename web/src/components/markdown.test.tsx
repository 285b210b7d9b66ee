import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

describe("Markdown", () => {
  it("renders the narrator's formatting", () => {
    const { container } = render(
      <Markdown>{"**Bold** and _soft_\n\n- one\n- two\n\n[site](https://example.com)"}</Markdown>,
    );
    expect(container.querySelector("strong")?.textContent).toBe("Bold");
    expect(container.querySelector("em")?.textContent).toBe("soft");
    expect(container.querySelectorAll("li")).toHaveLength(2);
    const link = container.querySelector("a");
    expect(link?.getAttribute("href")).toBe("https://example.com");
    expect(link?.getAttribute("target")).toBe("_blank");
    expect(link?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
  });

  it("shows raw HTML as inert text: no script, no image with an onerror handler", () => {
    const { container } = render(
      <Markdown>
        {'<script>window.__pwned = 1</script>\n\nHello <img src=x onerror="window.__pwned = 2"> there'}
      </Markdown>,
    );
    expect(container.querySelector("script")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("[onerror]")).toBeNull();
    expect(container.textContent).toContain("<script>window.__pwned = 1</script>");
    expect(container.textContent).toContain('<img src=x onerror="window.__pwned = 2">');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("empties javascript: and other unsafe addresses, keeping the spec's schemes and relative ones", () => {
    const { container } = render(
      <Markdown>
        {[
          "[js](javascript:alert(1))",
          "[data](data:text/html,<b>x</b>)",
          "[vb](vbscript:msgbox)",
          "[mail](mailto:ada@example.com)",
          "[irc](ircs://irc.example.com/room)",
          "[xmpp](xmpp:ada@example.com)",
          "[rel](/stories)",
          "[http](http://example.com)",
        ].join("\n\n")}
      </Markdown>,
    );
    const hrefs = [...container.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual([
      "mailto:ada@example.com",
      "ircs://irc.example.com/room",
      "xmpp:ada@example.com",
      "/stories",
      "http://example.com",
    ]);
    // The unsafe ones remain as plain words.
    expect(container.textContent).toContain("js");
    expect(container.innerHTML).not.toContain("javascript:");
    expect(container.innerHTML).not.toContain("vbscript:");
  });

  it("keeps same-origin pictures, turns other sites' into links and drops unsafe ones", () => {
    const { container } = render(
      <Markdown>
        {"![here](/media/a.png)\n\n![there](https://cdn.example.com/b.png)\n\n![bad](javascript:alert(1))"}
      </Markdown>,
    );
    const images = [...container.querySelectorAll("img")];
    expect(images.map((img) => img.getAttribute("src"))).toEqual(["/media/a.png"]);
    expect(container.querySelector('a[href="https://cdn.example.com/b.png"]')?.textContent).toBe("there");
    expect(container.innerHTML).not.toContain("javascript:");
  });
});
