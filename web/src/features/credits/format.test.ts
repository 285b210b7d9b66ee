import { describe, expect, it } from "vitest";
import {
  formatActivityMonth,
  formatTopUpDate,
  signedAmount,
  transactionCategory,
  transactionLabel,
} from "./format";

describe("credit history formatting", () => {
  it("names every transaction type", () => {
    expect(transactionLabel("purchase")).toBe("Credit purchase");
    expect(transactionLabel("signup_bonus")).toBe("Sign-up bonus");
    expect(transactionLabel("admin_grant")).toBe("Credits granted");
    expect(transactionLabel("admin_take_back")).toBe("Credits taken back");
    expect(transactionLabel("refund")).toBe("Refund");
    expect(transactionLabel("usage_chat")).toBe("Chat message");
    expect(transactionLabel("usage_image")).toBe("Image generation");
    expect(transactionLabel("usage_video")).toBe("Video generation");
    expect(transactionLabel("usage_advisor")).toBe("Prompt advisor");
    expect(transactionLabel("usage_speech")).toBe("Narration");
    expect(transactionLabel("usage_upscale_2x")).toBe("Usage: upscale 2x");
    expect(transactionLabel("promo_credit")).toBe("Promo credit");
  });

  it("sorts them into purchase, bonus, refund and usage", () => {
    expect(transactionCategory("purchase", 275)).toBe("purchase");
    expect(transactionCategory("signup_bonus", 15)).toBe("bonus");
    expect(transactionCategory("refund", 1)).toBe("refund");
    expect(transactionCategory("usage_video", -3)).toBe("usage");
  });

  it("signs amounts with a true minus", () => {
    expect(signedAmount(275)).toBe("+275");
    expect(signedAmount(-0.5)).toBe("\u22120.5");
    expect(signedAmount(0)).toBe("0");
  });

  it("shows the last top-up date, or 'None'", () => {
    expect(formatTopUpDate(null)).toBe("None");
    expect(formatTopUpDate("not a date")).toBe("None");
    expect(formatTopUpDate("2026-01-05T12:00:00.000Z")).toBe("Jan 5, 2026");
  });

  it("names the month counted", () => {
    expect(formatActivityMonth("2026-05")).toBe("May 2026");
    expect(formatActivityMonth("")).toBe("This month");
  });
});
