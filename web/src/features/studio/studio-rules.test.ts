import { tooManyInputImagesMessage } from "@storyverse/contract/studio";
import { describe, expect, it } from "vitest";
import {
  batchSummaryText,
  checkPaste,
  checkPickerAdd,
  checkUploads,
  generationFailedMessage,
  INVALID_GENERATION_RESPONSE,
  imageFilesOnlyMessage,
  invalidGenerationResponseMessage,
  overallLimitMessage,
  parseSeed,
  pasteLimitMessage,
  pickerCounter,
  pickerLimitMessage,
  pickerRoom,
  ratioValue,
  reuseLimitMessage,
  type StudioInput,
  studioCost,
  suggestedPrompt,
  togglePickerSelection,
  toggleResultReuse,
  toRequestInput,
} from "./studio-rules";

const png = { type: "image/png" };
const pdf = { type: "application/pdf" };

function uploads(count: number): StudioInput[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `u${i}`,
    origin: "upload" as const,
    data: "data:image/png;base64,AAAA",
    name: `u${i}.png`,
    preview: "data:image/png;base64,AAAA",
  }));
}

function results(count: number, from = 0): StudioInput[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `r${from + i}`,
    origin: "result" as const,
    id: `item-${from + i}`,
    url: `/media/${from + i}`,
    preview: `/thumb/${from + i}`,
  }));
}

describe("the spec's words", () => {
  it("are exactly the spec's", () => {
    expect(imageFilesOnlyMessage()).toBe("Please select image files only.");
    expect(pasteLimitMessage()).toBe(
      "Maximum 10 images allowed. Remove some images before pasting new ones.",
    );
    expect(pickerLimitMessage()).toBe("Maximum 10 images can be selected for Seedream-4 input");
    expect(reuseLimitMessage()).toBe("Maximum 3 images can be selected for input");
    expect(overallLimitMessage(8)).toBe(
      "Maximum 10 images allowed for Seedream-4. You currently have 8 images.",
    );
    expect(generationFailedMessage("boom")).toBe("Generation failed: boom");
    expect(INVALID_GENERATION_RESPONSE).toBe("Invalid response from image generation service");
    expect(invalidGenerationResponseMessage()).toBe(INVALID_GENERATION_RESPONSE);
    // The contract's words, also for one image (the server's validation says the same).
    expect(overallLimitMessage(1)).toBe(tooManyInputImagesMessage(1));
  });
});

describe("uploads", () => {
  it("accept image files up to 10 inputs in all", () => {
    expect(checkUploads([png, png], 8)).toEqual({ accepted: [png, png], error: null });
    expect(checkUploads(Array(10).fill(png), 0).error).toBeNull();
  });

  it("refuse anything that is not an image, adding nothing", () => {
    expect(checkUploads([png, pdf], 0)).toEqual({ accepted: [], error: "Please select image files only." });
  });

  it("refuse going past 10, naming how many there are now", () => {
    expect(checkUploads([png, png, png], 8)).toEqual({
      accepted: [],
      error: "Maximum 10 images allowed for Seedream-4. You currently have 8 images.",
    });
    expect(checkUploads([png], 10).error).toBe(overallLimitMessage(10));
  });

  it("of nothing do nothing", () => {
    expect(checkUploads([], 10)).toEqual({ accepted: [], error: null });
  });
});

describe("pastes", () => {
  it("take the clipboard's images and leave the rest alone", () => {
    expect(checkPaste([png, { type: "text/plain" }], 0)).toEqual({ accepted: [png], error: null });
    expect(checkPaste([{ type: "text/plain" }], 10)).toEqual({ accepted: [], error: null });
  });

  it("refuse a paste that would pass 10 inputs", () => {
    expect(checkPaste([png], 10)).toEqual({ accepted: [], error: pasteLimitMessage() });
    expect(checkPaste([png, png], 9)).toEqual({ accepted: [], error: pasteLimitMessage() });
    expect(checkPaste([png], 9).error).toBeNull();
  });
});

describe("the gallery picker", () => {
  it("toggles selections on and off", () => {
    const on = togglePickerSelection([], "a");
    expect(on).toEqual({ accepted: ["a"], error: null, selection: ["a"] });
    expect(togglePickerSelection(on.selection, "a").selection).toEqual([]);
  });

  it("caps selections at 10, with the spec's message, and counts them out of the room left", () => {
    let selection: string[] = [];
    for (let i = 0; i < 10; i++) selection = togglePickerSelection(selection, `id${i}`).selection;
    expect(selection).toHaveLength(10);
    const refused = togglePickerSelection(selection, "id10");
    expect(refused.error).toBe(pickerLimitMessage());
    expect(refused.selection).toEqual(selection);
    expect(pickerCounter(0)).toBe("0/10 selected");
    // Never "4/3 selected" (issue 45 item 9): the denominator is how many may be selected.
    expect(pickerCounter(4)).toBe("4/10 selected");
    expect(pickerCounter(10)).toBe("10/10 selected");
    expect(pickerCounter(2, pickerRoom(uploads(7)))).toBe("2/3 selected");
    // With 7 inputs already there, an 11th image is refused at the 4th selection, in the spec's words.
    const three = ["a", "b", "c"];
    expect(togglePickerSelection(three, "d", 7)).toMatchObject({
      error: "Maximum 10 images allowed for Seedream-4. You currently have 7 images.",
      selection: three,
    });
    // Unselecting still works at the cap.
    expect(togglePickerSelection(selection, "id0").selection).toHaveLength(9);
  });

  it("adds a selection only while the inputs stay within 10, skipping those already there", () => {
    expect(checkPickerAdd(["a", "b"], uploads(8))).toEqual({ accepted: ["a", "b"], error: null });
    expect(checkPickerAdd(["a", "b", "c"], uploads(8))).toEqual({
      accepted: [],
      error: "Maximum 10 images allowed for Seedream-4. You currently have 8 images.",
    });
    expect(checkPickerAdd(["item-0", "x"], results(1))).toEqual({ accepted: ["x"], error: null });
  });
});

describe("reusing results", () => {
  const result = (n: number) => ({ id: `item-${n}`, url: `/media/${n}`, preview: `/thumb/${n}` });

  it("selects up to 3 results and refuses a 4th with the spec's message", () => {
    let inputs: StudioInput[] = [];
    for (const n of [0, 1, 2]) {
      const next = toggleResultReuse(inputs, result(n));
      expect(next.error).toBeNull();
      inputs = next.inputs;
    }
    expect(inputs).toHaveLength(3);
    const fourth = toggleResultReuse(inputs, result(3));
    expect(fourth.error).toBe("Maximum 3 images can be selected for input");
    expect(fourth.inputs).toHaveLength(3);
  });

  it("unselects a selected result", () => {
    const inputs = results(3);
    expect(toggleResultReuse(inputs, result(1)).inputs.map((i) => i.key)).toEqual(["r0", "r2"]);
  });

  it("counts uploads towards 10 but not towards the 3", () => {
    expect(toggleResultReuse(uploads(5), result(0)).error).toBeNull();
    expect(toggleResultReuse(uploads(10), result(0)).error).toBe(overallLimitMessage(10));
  });
});

describe("costs and requests", () => {
  it("prices a batch at 1.5 credits an image and the advisor at 0.5", () => {
    expect([1, 2, 3, 4].map((n) => studioCost("image", n))).toEqual([1.5, 3, 4.5, 6]);
    expect(studioCost("chat", 4)).toBe(0.5);
  });

  it("sends gallery items by id and uploads as {data, name}", () => {
    expect(toRequestInput(results(1)[0]!)).toBe("item-0");
    expect(toRequestInput(uploads(1)[0]!)).toEqual({ data: "data:image/png;base64,AAAA", name: "u0.png" });
  });
});

describe("Use this prompt", () => {
  it("takes the prompt an advisor's answer suggests, without its Markdown", () => {
    expect(suggestedPrompt("Try:\n\n```\nA misty forest, dawn\n```\nEnjoy")).toBe("A misty forest, dawn");
    expect(suggestedPrompt("**Try this:**\n\n> A red fox in fresh snow,\n> golden hour.")).toBe(
      "A red fox in fresh snow, golden hour.",
    );
    expect(suggestedPrompt("Here you go.\n**Prompt:** A brass key on velvet, macro")).toBe(
      "A brass key on velvet, macro",
    );
    expect(suggestedPrompt('You could write "a lighthouse on a cliff at dusk" and add fog.')).toBe(
      "a lighthouse on a cliff at dusk",
    );
    expect(suggestedPrompt("Use **rim light** and a *low* angle.")).toBe("Use rim light and a *low* angle.");
  });
});

describe("seeds and shapes (decision 0149)", () => {
  it("reads the seed field: empty is a new seed, else a whole number from 0 to 4294967295", () => {
    expect(parseSeed("")).toBeNull();
    expect(parseSeed("   ")).toBeNull();
    expect(parseSeed(" 42 ")).toBe(42);
    expect(parseSeed("0")).toBe(0);
    expect(parseSeed("4294967295")).toBe(4_294_967_295);
    for (const bad of ["4294967296", "-1", "1.5", "1e3", "12a", "99999999999"]) {
      expect(parseSeed(bad), bad).toBe("invalid");
    }
  });

  it("gives a shape's width over its height", () => {
    expect(ratioValue("3:4")).toBe(0.75);
    expect(ratioValue("21:9")).toBeCloseTo(2.333, 3);
  });
});

describe("a batch's answer", () => {
  it("is recognised in the server's words and said again in the interface's language", () => {
    for (const said of [
      "Here is your image.",
      "Here are your 4 images.",
      "Here is 1 image of the 2 you asked for; the 1 that could not be made was refunded.",
      "Here are 2 images of the 4 you asked for; the 2 that could not be made were refunded.",
    ]) {
      expect(batchSummaryText(said)).toBe(said);
    }
    expect(batchSummaryText("Here are your images.")).toBeNull();
  });
});
