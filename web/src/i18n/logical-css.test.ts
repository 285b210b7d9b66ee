// Layouts use logical CSS (decision 0155) so a right-to-left language mirrors them: a physical side (ml-, pr-,
// left-, text-right, border-l, rounded-r ...) in a class list would stay put in Arabic or Hebrew.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..");
// left-1/2 with -translate-x-1/2 centres an element: the same in both directions.
const PHYSICAL =
  /(?<=[\s"'`:])-?(?:m[lr]|p[lr]|scroll-[mp][lr]|left|right)-(?!1\/2\b)[\w[.]|(?<=[\s"'`:])(?:text-(?:left|right)|border-[lr]|rounded-(?:[lr]|tl|tr|bl|br))(?=[\s"'`-])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("the web app's layout", () => {
  it("names no physical side in a class list", () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, index) => {
          if (/className|Classes|classes\b/.test(line) && PHYSICAL.test(line))
            found.push(`${relative(SRC, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});
