// The usage report's CSV and range rules (decision 0150): a cell a spreadsheet would run as a formula is made
// text, quotes and commas are escaped, and a range is checked before anything is read.
import { describe, expect, it } from "vitest";
import { usageCsv, usageRange } from "./usage";

const kinds = { text: 1, pictures: -1.5, clips: 0, speech: 0, films: 0, other: 0 };

describe("the usage CSV", () => {
  it("never hands a spreadsheet a formula, and quotes what needs quoting", () => {
    const csv = usageCsv({
      from: "2026-01-10",
      to: "2026-01-10",
      group_by: "user",
      user_id: null,
      total_credits: 0,
      total_uses: 0,
      rows: [
        { key: "u1", label: '=HYPERLINK("x")@example.com', credits: -0.5, uses: 2, by_kind: kinds },
        { key: "u2", label: "a,b@example.com", credits: 1, uses: 1, by_kind: kinds },
        { key: "u3", label: null, credits: 0, uses: 0, by_kind: kinds },
      ],
    });
    expect(csv.split("\r\n")).toEqual([
      "account_id,email,text,pictures,clips,speech,films,other,credits,uses",
      `u1,"'=HYPERLINK(""x"")@example.com",1,-1.5,0,0,0,0,-0.5,2`,
      `u2,"a,b@example.com",1,-1.5,0,0,0,0,1,1`,
      "u3,,1,-1.5,0,0,0,0,0,0",
      "",
    ]);
  });
});

describe("the usage range", () => {
  const now = new Date("2026-03-15T10:00:00Z");
  it("is the last 30 days by default, today included", () => {
    const { from, to, days } = usageRange({}, now);
    expect([from.toISOString(), to.toISOString(), days]).toEqual([
      "2026-02-14T00:00:00.000Z",
      "2026-03-15T00:00:00.000Z",
      30,
    ]);
  });
  it("takes 366 days and refuses 367", () => {
    expect(usageRange({ from: "2025-01-01", to: "2026-01-01" }, now).days).toBe(366);
    expect(() => usageRange({ from: "2025-01-01", to: "2026-01-02" }, now)).toThrow(
      "A usage report covers at most 366 days; this range has 367.",
    );
  });
});
