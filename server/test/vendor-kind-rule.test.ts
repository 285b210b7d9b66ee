// Nothing outside the providers decides by which vendor is configured (issue 41 item 4, decision 0151):
// services ask a provider what it can do (a text provider's `purposes`, a voice provider's `billed`, an image
// provider's `editKinds` and `takesSeed`), never whether it is "offline" or "openai". The check reads the
// server's source: a comparison of a provider's name or kind with a vendor, or a read of a configured
// provider's kind, fails it. config.ts parses the kinds, and system/capabilities.ts reports them to clients
// (`GET /api/config`'s `providers`); a name used as a label or a cache key is not a decision and passes.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = path.resolve(import.meta.dirname, "../src");
const VENDORS = "offline|openai|byteplus|replicate|elevenlabs|none";
const CAPABILITIES = "text|image|video|speech|voice|embeddings";

/** What reads a vendor's identity to decide something. */
const RULES: { what: string; pattern: RegExp }[] = [
  {
    what: "compares a name or kind with a vendor",
    pattern: new RegExp(`\\.(?:name|kind)\\s*[!=]==?\\s*["'\`](?:${VENDORS})["'\`]`),
  },
  {
    what: "compares a vendor with a name or kind",
    pattern: new RegExp(`["'\`](?:${VENDORS})["'\`]\\s*[!=]==?\\s*[\\w.?]+\\.(?:name|kind)\\b`),
  },
  {
    what: "reads a configured provider's kind",
    pattern: new RegExp(`providers\\??\\.(?:${CAPABILITIES})\\??\\.kind\\b`),
  },
];

/** Files allowed to read the kinds: where they are parsed and where they are reported. */
const ALLOWED = new Set(["config.ts", "system/capabilities.ts"]);

/** The rule's findings in one file's text: "line: what". */
function vendorReads(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      RULES.filter((rule) => rule.pattern.test(line)).map((rule) => `${index + 1}: ${rule.what}`),
    );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("the vendor-kind rule", () => {
  it("finds no service outside providers/ deciding by which vendor is configured", () => {
    const found = sourceFiles(src)
      .map((file) => path.relative(src, file).split(path.sep).join("/"))
      .filter((file) => !file.startsWith("providers/") && !ALLOWED.has(file))
      .flatMap((file) =>
        vendorReads(readFileSync(path.join(src, file), "utf8")).map((hit) => `${file}:${hit}`),
      );
    expect(found).toEqual([]);
  });

  it("fails on the two reads it replaced, and passes a capability or a label", () => {
    expect(vendorReads('  if (ctx.config.providers.text.kind === "offline") {')).toEqual([
      "1: compares a name or kind with a vendor",
      "1: reads a configured provider's kind",
    ]);
    expect(vendorReads('  !provider || provider.name === "offline" ? 0 : CREDIT_COSTS.speech;')).toEqual([
      "1: compares a name or kind with a vendor",
    ]);
    expect(vendorReads('if ("openai" !== ctx.providers.image.name) return;')).toEqual([
      "1: compares a vendor with a name or kind",
    ]);
    expect(vendorReads('  if (!ctx.providers.text.purposes.includes("lore")) {')).toEqual([]);
    expect(vendorReads('  const key = path.join("voices", provider.name, hash);')).toEqual([]);
    expect(vendorReads('  if (card.kind === "character") continue;')).toEqual([]);
  });
});
