import type { GalleryItem } from "@storyverse/contract/media";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { readStorage, writeStorage } from "../../../lib/storage";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../../test/render-app";
import { StudioPage } from "./studio-page";

function item(n: number, overrides: Partial<GalleryItem> = {}): GalleryItem {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return {
    id,
    type: "image",
    media_url: `/media/${n}.png?sig=x`,
    url: `/media/${n}.png?sig=x`,
    thumbnail_url: `/media/${n}.thumb.webp?sig=x`,
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
    description: `picture ${n}`,
    source: "studio",
    story_id: null,
    story_title: null,
    file_extension: "png",
    message_id: null,
    ...overrides,
  };
}

const quota = (remaining: number, charged: number) => ({
  remaining,
  unlimited: false,
  cost: charged,
  charged,
});

interface ServerOptions {
  generate?: (call: FetchCall) => Response;
  advisor?: (call: FetchCall) => Response;
  userImages?: GalleryItem[];
  balance?: { remaining: number; unlimited: boolean };
  /** What the image service can edit (the server's /api/config); no config answer when absent. */
  editKinds?: string[];
}

let generated = 0;
function batch(size: number): GalleryItem[] {
  batch.last = Array.from({ length: size }, () => item(100 + ++generated));
  return batch.last;
}
batch.last = [] as GalleryItem[];

/** What the server records of each exchange, so a later history fetch returns it as the real one does. */
function recorded(prompt: string, answer: Record<string, unknown>, isAdvisor: boolean, batchSize: number) {
  const at = Date.now();
  const base = { images: [], image_items: [], input_images: [], isAdvisor, batchSize };
  return [
    { ...base, id: `u-${at}`, role: "user", content: prompt, timestamp: new Date(at).toISOString() },
    { ...base, role: "assistant", timestamp: new Date(at + 1).toISOString(), ...answer },
  ];
}

function server(options: ServerOptions = {}): FetchCall[] {
  const history: unknown[] = [];
  let balance = options.balance ?? { remaining: 15, unlimited: false };
  return mockFetch(async (call) => {
    const response = route(call);
    const prompt = (call.body as { prompt?: string } | undefined)?.prompt ?? "";
    if (response.ok && call.path === "/api/studio/generate-image") {
      const data = await response.clone().json();
      const size = (call.body as { batch_size: number }).batch_size;
      const answer = {
        id: data.message_id,
        content: "Here are your images.",
        images: data.images,
        image_items: data.items,
      };
      history.push(...recorded(prompt, answer, false, size));
      balance = { remaining: data.quota_info.remaining, unlimited: false };
    }
    if (response.ok && call.path === "/api/studio/advisor-chat") {
      const data = await response.clone().json();
      history.push(...recorded(prompt, { id: data.message_id, content: data.response }, true, 1));
    }
    return response;
  });

  function route(call: FetchCall): Response {
    if (call.path === "/api/studio/messages") return json({ success: true, messages: history });
    if (call.path === "/api/credit-balance") return json(balance);
    if (call.path === "/api/config" && options.editKinds)
      return json({
        capabilities: ["accounts", "image"],
        providers: { text: "offline", image: "offline", video: "offline", transcription: null },
        offline_providers: true,
        image_edit_kinds: options.editKinds,
      });
    const details = /^\/api\/media\/([^/]+)\/details$/.exec(call.path);
    const detailed = details ? batch.last.find((made) => made.id === details[1]) : undefined;
    if (detailed)
      return json({
        item: detailed,
        prompt: "a lighthouse",
        width: 64,
        height: 48,
        bytes: 1024,
        mime_type: "image/png",
        model: null,
        seed: null,
        references: [],
        parent: null,
        children: [],
      });
    if (call.path === "/api/user/images") return json({ success: true, images: options.userImages ?? [] });
    if (call.path === "/api/studio/generate-image") {
      if (options.generate) return options.generate(call);
      const size = (call.body as { batch_size: number }).batch_size;
      const items = batch(size);
      return json({
        success: true,
        images: items.map((i) => i.url),
        items,
        message_id: `m-${generated}`,
        quota_info: quota(15 - 1.5 * size, 1.5 * size),
      });
    }
    if (call.path === "/api/studio/advisor-chat") {
      if (options.advisor) return options.advisor(call);
      return json({
        success: true,
        response: "Try **golden hour**.",
        message_id: "adv-1",
        quota_info: quota(14.5, 0.5),
      });
    }
    return json({ detail: "Not Found" }, 404);
  }
}

function renderStudio() {
  const client = createTestQueryClient();
  const view = render(
    <Providers auth={SIGNED_IN} client={client}>
      <QuotaPromptProvider>
        <StudioPage />
      </QuotaPromptProvider>
    </Providers>,
  );
  return { ...view, client };
}

const promptBox = () => screen.getByRole("textbox", { name: /Describe the image|Ask the prompt advisor/ });
// Counted even while a dialog hides the page from the accessibility tree.
const inputList = () => screen.queryByRole("list", { name: "Input images", hidden: true });
const inputCount = () => {
  const list = inputList();
  return list ? within(list).getAllByRole("listitem", { hidden: true }).length : 0;
};

function png(name = "cat.png"): File {
  return new File([new Uint8Array([137, 80, 78, 71])], name, { type: "image/png" });
}

function paste(files: File[]) {
  const event = new Event("paste", { bubbles: true, cancelable: true });
  Object.defineProperty(event, "clipboardData", { value: { files, items: [] } });
  act(() => {
    document.dispatchEvent(event);
  });
  return event;
}

function upload(files: File[]) {
  const input = screen.getByLabelText("Upload input images") as HTMLInputElement;
  Object.defineProperty(input, "files", { value: files, configurable: true });
  fireEvent.change(input);
}

async function generate(text: string) {
  fireEvent.change(promptBox(), { target: { value: text } });
  fireEvent.click(screen.getByRole("button", { name: "Generate" }));
}

describe("Studio", () => {
  it("greets with its empty state and prices the batch", async () => {
    server();
    renderStudio();
    expect(screen.getByRole("heading", { level: 1, name: "Studio" })).toBeTruthy();
    expect(screen.getByText("Start creating amazing images with AI")).toBeTruthy();
    await screen.findByText("1.5 credits");
    fireEvent.click(screen.getByRole("radio", { name: "4 images" }));
    expect(screen.getByText("6 credits")).toBeTruthy();
    fireEvent.click(screen.getByRole("radio", { name: "3 images" }));
    expect(screen.getByText("4.5 credits")).toBeTruthy();
  });

  it("keeps the mode and the batch size across visits", async () => {
    server();
    const first = renderStudio();
    fireEvent.click(screen.getByRole("radio", { name: "2 images" }));
    fireEvent.click(screen.getByRole("button", { name: "Advisor" }));
    expect(readStorage("batchSize")).toBe(2);
    expect(readStorage("studioMode")).toBe("chat");
    // The advisor costs 0.5 and has no batch or input images.
    expect(await screen.findByText("0.5 credits")).toBeTruthy();
    expect(screen.queryByRole("radio", { name: "2 images" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Upload" })).toBeNull();
    first.unmount();

    renderStudio();
    expect(screen.getByRole("button", { name: "Advisor" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Image" }));
    expect((screen.getByRole("radio", { name: "2 images" }) as HTMLInputElement).checked).toBe(true);
    expect(readStorage("studioMode")).toBe("image");
  });

  it("hides the cost for an unlimited user", async () => {
    server({ balance: { remaining: -1, unlimited: true } });
    renderStudio();
    await waitFor(() => expect(screen.queryByText(/credits?$/)).toBeNull());
    expect(screen.queryByText("1.5 credits")).toBeNull();
  });

  it("makes a batch of 4 and shows the 4 results, charging through the balance", async () => {
    const calls = server();
    const { client } = renderStudio();
    fireEvent.click(screen.getByRole("radio", { name: "4 images" }));
    await generate("a lighthouse at dusk");
    expect(await screen.findByText("Generating 4 images...")).toBeTruthy();
    const results = await screen.findByRole("list", { name: "Results" });
    expect(within(results).getAllByRole("listitem")).toHaveLength(4);
    const request = calls.find((call) => call.path === "/api/studio/generate-image");
    expect(request?.body).toEqual({
      prompt: "a lighthouse at dusk",
      batch_size: 4,
      input_images: [],
      aspect_ratio: "4:3",
    });
    await waitFor(() =>
      expect(client.getQueryData(["credit-balance"])).toEqual({ remaining: 9, unlimited: false }),
    );
    // The conversation is kept for the next visit.
    const stored = readStorage("studio_messages") as { content: string }[];
    expect(stored.map((message) => message.content)).toContain("a lighthouse at dusk");
    // The prompt box is cleared for the next idea.
    expect((promptBox() as HTMLTextAreaElement).value).toBe("");
  });

  it("says 'Generation failed: {message}' when the server fails", async () => {
    server({ generate: () => json({ detail: "The image service is down." }, 502) });
    renderStudio();
    await generate("a castle");
    const alerts = await screen.findAllByText("Generation failed: The image service is down.");
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    expect(screen.getByRole("alert").textContent).toContain("Generation failed: The image service is down.");
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });

  it("says 'Invalid response from image generation service' when no images come back", async () => {
    server({
      generate: () =>
        json({ success: true, images: [], items: [], message_id: "m", quota_info: quota(15, 0) }),
    });
    renderStudio();
    await generate("a castle");
    expect(
      (await screen.findAllByText("Generation failed: Invalid response from image generation service"))
        .length,
    ).toBeGreaterThanOrEqual(1);
  });

  it("opens the Quota Exceeded dialog on 402 and gives the prompt back", async () => {
    server({
      generate: () =>
        json(
          { detail: "Insufficient credits: 6 needed", quota_exceeded: true, quota_info: quota(1, 0) },
          402,
        ),
    });
    renderStudio();
    fireEvent.click(screen.getByRole("radio", { name: "4 images" }));
    await generate("too expensive");
    expect(await screen.findByRole("dialog", { name: "Quota Exceeded" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Later" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect((promptBox() as HTMLTextAreaElement).value).toBe("too expensive");
    expect(screen.queryByText("too expensive", { selector: "div" })).toBeNull();
  });

  it("renders the advisor's answer as safe Markdown", async () => {
    server({
      advisor: () =>
        json({
          success: true,
          response:
            "Use **rim light**. <script>alert(1)</script> [bad](javascript:alert(1)) [good](https://example.com)",
          message_id: "adv",
          quota_info: quota(14.5, 0.5),
        }),
    });
    const { container } = renderStudio();
    fireEvent.click(screen.getByRole("button", { name: "Advisor" }));
    fireEvent.change(promptBox(), { target: { value: "help me" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect((await screen.findByText("rim light")).tagName).toBe("STRONG");
    expect(container.querySelector("script")).toBeNull();
    expect(screen.getByText("bad").getAttribute("href") ?? "").toBe("");
    expect(screen.getByText("good").getAttribute("href")).toBe("https://example.com");
  });
});

describe("Studio advisor: Use this prompt", () => {
  it("puts the prompt the answer suggests into the composer, in image mode, ready to send", async () => {
    server({
      advisor: () =>
        json({
          success: true,
          response:
            "Try this:\n\n> A red fox in fresh snow, golden hour, low angle, 85 mm.\n\nKeep the light warm.",
          message_id: "adv",
          quota_info: quota(14.5, 0.5),
        }),
    });
    renderStudio();
    fireEvent.click(screen.getByRole("button", { name: "Advisor" }));
    fireEvent.change(promptBox(), { target: { value: "a fox in snow?" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    fireEvent.click(await screen.findByRole("button", { name: "Use this prompt" }));
    expect(screen.getByRole("button", { name: "Image" }).getAttribute("aria-pressed")).toBe("true");
    const box = promptBox() as HTMLTextAreaElement;
    expect(box.value).toBe("A red fox in fresh snow, golden hour, low angle, 85 mm.");
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByRole("button", { name: "Generate" }).hasAttribute("disabled")).toBe(false);
  });
});

describe("Studio batch size", () => {
  it("is four real choices: clicking a number chooses it and the price follows", async () => {
    server();
    renderStudio();
    const four = screen.getByRole("radio", { name: "4 images" });
    fireEvent.click(screen.getByTestId("batch-4"));
    expect((four as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText("6 credits")).toBeTruthy();
    fireEvent.click(screen.getByTestId("batch-1"));
    expect((screen.getByRole("radio", { name: "1 image" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText("1.5 credits")).toBeTruthy();
  });
});

describe("Studio shapes and seeds (decision 0149)", () => {
  it("offers six shapes, keeps the choice, and sends the shape and the typed seed", async () => {
    const calls = server();
    const first = renderStudio();
    const shapes = within(screen.getByRole("group", { name: "Shape" })).getAllByRole("radio");
    expect(shapes.map((radio) => radio.getAttribute("aria-label"))).toEqual([
      "1:1 square",
      "4:3 landscape",
      "3:4 portrait",
      "16:9 wide",
      "9:16 tall",
      "21:9 cinema",
    ]);
    expect((screen.getByRole("radio", { name: "4:3 landscape" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId("shape-9:16"));
    expect((screen.getByRole("radio", { name: "9:16 tall" }) as HTMLInputElement).checked).toBe(true);
    expect(readStorage("studioShape")).toBe("9:16");
    fireEvent.change(screen.getByRole("textbox", { name: "Seed" }), { target: { value: " 4242 " } });
    await generate("a paper lantern festival");
    await screen.findByRole("list", { name: "Results" });
    const request = calls.find((call) => call.path === "/api/studio/generate-image");
    expect(request?.body).toMatchObject({ aspect_ratio: "9:16", seed: 4242 });
    // The seed stays for the next prompt (same seed, changed prompt); clearing it asks for a new one.
    const seedBox = screen.getByRole("textbox", { name: "Seed" }) as HTMLInputElement;
    expect(seedBox.value).toBe(" 4242 ");
    fireEvent.click(screen.getByRole("button", { name: "Clear the seed (a new one each time)" }));
    expect(seedBox.value).toBe("");
    first.unmount();

    renderStudio();
    expect((screen.getByRole("radio", { name: "9:16 tall" }) as HTMLInputElement).checked).toBe(true);
  });

  it("refuses a seed that is not a whole number from 0 to 4294967295, sending nothing", async () => {
    const calls = server();
    renderStudio();
    fireEvent.change(promptBox(), { target: { value: "a fox" } });
    const seedBox = screen.getByRole("textbox", { name: "Seed" });
    for (const bad of ["12a", "-1", "1.5", "4294967296"]) {
      fireEvent.change(seedBox, { target: { value: bad } });
      expect(screen.getByText("The seed is a whole number from 0 to 4294967295.")).toBeTruthy();
      expect(seedBox.getAttribute("aria-invalid")).toBe("true");
      expect(screen.getByRole("button", { name: "Generate" }).hasAttribute("disabled")).toBe(true);
      fireEvent.keyDown(promptBox(), { key: "Enter" });
    }
    fireEvent.change(seedBox, { target: { value: "4294967295" } });
    expect(screen.queryByText("The seed is a whole number from 0 to 4294967295.")).toBeNull();
    expect(screen.getByRole("button", { name: "Generate" }).hasAttribute("disabled")).toBe(false);
    expect(calls.some((call) => call.path === "/api/studio/generate-image")).toBe(false);
  });

  it("shows each result in its shape with its seed; 'Use this seed' fills the seed, shape and prompt", async () => {
    const calls = server({
      generate: () =>
        json({
          success: true,
          images: ["/media/501.png?sig=x", "/media/502.png?sig=x"],
          items: [
            item(501, { seed: 777, width: 1152, height: 2048, description: "a tall tower" }),
            item(502, { seed: 778, width: 1152, height: 2048, description: "a tall tower" }),
          ],
          message_id: "m-seeded",
          quota_info: quota(12, 3),
        }),
    });
    renderStudio();
    fireEvent.click(screen.getByTestId("shape-1:1"));
    await generate("a tall tower");
    const results = await screen.findByRole("list", { name: "Results" });
    const tile = within(results).getAllByRole("button", { name: /^Result 1 of 2/ })[0]!;
    expect(tile.style.aspectRatio).toMatch(/^0\.5625( \/ 1)?$/);
    expect(within(results).getByText("Seed 778")).toBeTruthy();

    fireEvent.click(within(results).getByRole("button", { name: "Use the seed of result 2 (778)" }));
    expect((screen.getByRole("textbox", { name: "Seed" }) as HTMLInputElement).value).toBe("778");
    expect((screen.getByRole("radio", { name: "9:16 tall" }) as HTMLInputElement).checked).toBe(true);
    expect((promptBox() as HTMLTextAreaElement).value).toBe("a tall tower");
    await waitFor(() => expect(document.activeElement).toBe(promptBox()));

    // A changed prompt with the same seed and shape.
    fireEvent.change(promptBox(), { target: { value: "a tall tower at dawn" } });
    fireEvent.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() =>
      expect(calls.filter((call) => call.path === "/api/studio/generate-image")).toHaveLength(2),
    );
    expect(calls.filter((call) => call.path === "/api/studio/generate-image")[1]?.body).toMatchObject({
      prompt: "a tall tower at dawn",
      aspect_ratio: "9:16",
      seed: 778,
    });
  });
});

describe("Studio input images", () => {
  it("offers Edit on each result only when the image service can edit, and opens the picture editor on it", async () => {
    server();
    const without = renderStudio();
    await generate("a lighthouse");
    await screen.findAllByRole("img", { name: /^Result 1 of 1/ });
    expect(screen.queryByRole("button", { name: "Edit result 1" })).toBeNull();
    without.unmount();

    const calls = server({ editKinds: ["vary"] });
    renderStudio();
    fireEvent.click(screen.getByRole("radio", { name: "2 images" }));
    await generate("a lighthouse");
    const second = await screen.findByRole("button", { name: "Edit result 2" });
    const [, picked] = batch.last;
    fireEvent.click(second);
    const dialog = await screen.findByRole("dialog", { name: "Edit picture" });
    // The editor opened on the second result, and offers what the service can make.
    await waitFor(() =>
      expect(calls.some((call) => call.path === `/api/media/${picked!.id}/details`)).toBe(true),
    );
    expect(await within(dialog).findByRole("button", { name: /Subtle/ })).toBeTruthy();
  });

  it("marks each input content, style or character, and sends the role with it (decision 0161)", async () => {
    const calls = server();
    renderStudio();
    paste([png("palette.png"), png("hero.png")]);
    await waitFor(() => expect(inputCount()).toBe(2));
    const first = screen.getByRole("combobox", { name: "Role of input image 1" }) as HTMLSelectElement;
    expect(first.value).toBe("content");
    expect([...first.options].map((option) => option.text)).toEqual(["Content", "Style", "Character"]);
    fireEvent.change(first, { target: { value: "style" } });
    fireEvent.change(screen.getByRole("combobox", { name: "Role of input image 2" }), {
      target: { value: "character" },
    });
    await generate("the hero in this palette");
    await screen.findByRole("list", { name: "Results" });
    const body = calls.find((call) => call.path === "/api/studio/generate-image")?.body as {
      input_images: { data: string; name: string; role?: string }[];
    };
    expect(body.input_images.map((input) => [input.name, input.role])).toEqual([
      ["palette.png", "style"],
      ["hero.png", "character"],
    ]);
  });

  it("adds a pasted image as an input and sends it as {data, name}", async () => {
    const calls = server();
    renderStudio();
    const event = paste([png("image.png")]);
    expect(event.defaultPrevented).toBe(true);
    await waitFor(() => expect(inputCount()).toBe(1));
    await generate("use my picture");
    await screen.findByRole("list", { name: "Results" });
    const body = calls.find((call) => call.path === "/api/studio/generate-image")?.body as {
      input_images: { data: string; name: string }[];
    };
    expect(body.input_images).toHaveLength(1);
    expect(body.input_images[0]?.data).toMatch(/^data:image\/png;base64,/);
    expect(body.input_images[0]?.name).toBe("pasted-image-1.png");
  });

  it("leaves a text paste alone", () => {
    server();
    renderStudio();
    const event = paste([]);
    expect(event.defaultPrevented).toBe(false);
    expect(inputCount()).toBe(0);
  });

  it("refuses a paste past 10 images with the spec's message", async () => {
    server();
    renderStudio();
    paste(Array.from({ length: 10 }, (_, i) => png(`p${i}.png`)));
    await waitFor(() => expect(inputCount()).toBe(10));
    paste([png()]);
    expect(
      (await screen.findByRole("alert")).textContent?.includes(
        "Maximum 10 images allowed. Remove some images before pasting new ones.",
      ),
    ).toBe(true);
    expect(inputCount()).toBe(10);
  });

  it("accepts image files only from the file picker", async () => {
    server();
    renderStudio();
    upload([png(), new File(["%PDF"], "doc.pdf", { type: "application/pdf" })]);
    expect((await screen.findByRole("alert")).textContent).toContain("Please select image files only.");
    expect(inputCount()).toBe(0);
    upload([png("a.png"), png("b.png")]);
    await waitFor(() => expect(inputCount()).toBe(2));
  });

  it("never holds more than 10 inputs, saying how many there are", async () => {
    server();
    renderStudio();
    upload(Array.from({ length: 8 }, (_, i) => png(`u${i}.png`)));
    await waitFor(() => expect(inputCount()).toBe(8));
    upload([png(), png(), png()]);
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Maximum 10 images allowed for Seedream-4. You currently have 8 images.",
    );
    expect(inputCount()).toBe(8);
  });

  it("removes an input", async () => {
    server();
    renderStudio();
    upload([png("a.png"), png("b.png")]);
    await waitFor(() => expect(inputCount()).toBe(2));
    fireEvent.click(screen.getByRole("button", { name: "Remove input image 1" }));
    expect(inputCount()).toBe(1);
  });
});

describe("Studio gallery picker", () => {
  const images = Array.from({ length: 12 }, (_, i) => item(i + 1));

  async function openPicker() {
    fireEvent.click(screen.getByRole("button", { name: "Choose from gallery" }));
    const dialog = await screen.findByRole("dialog", { name: "Select from Gallery" });
    const grid = await within(dialog).findByRole("list", { name: "Your images" });
    return { dialog, tiles: within(grid).getAllByRole("button") };
  }

  it("shows the user's images in a 5-column grid of thumbnails", async () => {
    server({ userImages: images });
    renderStudio();
    const { dialog, tiles } = await openPicker();
    expect(tiles).toHaveLength(12);
    expect(within(dialog).getByRole("list", { name: "Your images" }).className).toContain("sm:grid-cols-5");
    expect(within(tiles[0]!).getByRole("img").getAttribute("src")).toBe("/media/1.thumb.webp?sig=x");
  });

  it("counts selections out of the 10 allowed (never '4/3 selected'), and refuses an 11th", async () => {
    const calls = server({ userImages: images });
    renderStudio();
    const { dialog, tiles } = await openPicker();
    expect(within(dialog).getByText("0/10 selected")).toBeTruthy();
    for (const tile of tiles.slice(0, 4)) fireEvent.click(tile);
    expect(within(dialog).getByText("4/10 selected")).toBeTruthy();
    for (const tile of tiles.slice(4, 10)) fireEvent.click(tile);
    expect(within(dialog).getByText("10/10 selected")).toBeTruthy();
    fireEvent.click(tiles[10]!);
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Maximum 10 images can be selected for Seedream-4 input",
    );
    expect(tiles[10]!.getAttribute("aria-pressed")).toBe("false");
    expect(within(dialog).getByText("10/10 selected")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole("button", { name: "Add Selected" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(inputCount()).toBe(10);

    await generate("ten references");
    await screen.findByRole("list", { name: "Results" });
    const body = calls.find((call) => call.path === "/api/studio/generate-image")?.body as {
      input_images: string[];
    };
    expect(body.input_images).toEqual(images.slice(0, 10).map((i) => i.id));
  });

  it("refuses a selection that would take the inputs past 10", async () => {
    server({ userImages: images });
    renderStudio();
    upload(Array.from({ length: 9 }, (_, i) => png(`u${i}.png`)));
    await waitFor(() => expect(inputCount()).toBe(9));
    const { dialog, tiles } = await openPicker();
    expect(within(dialog).getByText("0/1 selected")).toBeTruthy();
    fireEvent.click(tiles[0]!);
    // The second is refused as it is selected, not only when added.
    fireEvent.click(tiles[1]!);
    expect(within(dialog).getByRole("alert").textContent).toBe(
      "Maximum 10 images allowed for Seedream-4. You currently have 9 images.",
    );
    expect(tiles[1]!.getAttribute("aria-pressed")).toBe("false");
    expect(within(dialog).getByText("1/1 selected")).toBeTruthy();
    expect(inputCount()).toBe(9);
    fireEvent.click(within(dialog).getByRole("button", { name: "Add Selected" }));
    await waitFor(() => expect(inputCount()).toBe(10));
  });
});

describe("Studio result reuse", () => {
  it("selects at most 3 results for input and sends them by id", async () => {
    const calls = server();
    renderStudio();
    fireEvent.click(screen.getByRole("radio", { name: "4 images" }));
    await generate("four options");
    await screen.findByRole("list", { name: "Results" });
    for (const n of [1, 2, 3])
      fireEvent.click(screen.getByRole("button", { name: `Use result ${n} as input` }));
    expect(inputCount()).toBe(3);
    fireEvent.click(screen.getByRole("button", { name: "Use result 4 as input" }));
    expect((await screen.findByRole("alert")).textContent).toContain(
      "Maximum 3 images can be selected for input",
    );
    expect(screen.getByRole("button", { name: "Use result 4 as input" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
    // Unselecting one frees a place.
    fireEvent.click(screen.getByRole("button", { name: "Use result 2 as input" }));
    expect(inputCount()).toBe(2);

    const first = calls.find((call) => call.path === "/api/studio/generate-image")?.body as {
      input_images: unknown[];
    };
    expect(first.input_images).toEqual([]);
    await generate("again");
    await waitFor(() => expect(screen.getAllByRole("list", { name: "Results" })).toHaveLength(2));
    const second = calls.filter((call) => call.path === "/api/studio/generate-image")[1]?.body as {
      input_images: string[];
    };
    expect(second.input_images).toHaveLength(2);
    expect(second.input_images.every((id) => /^0{8}-/.test(id))).toBe(true);
  });
});

describe("Studio conversation storage", () => {
  it("shows the stored conversation at once, then the server's", async () => {
    writeStorage("studio_messages", [
      {
        id: "old-1",
        role: "user",
        content: "stored prompt",
        images: [],
        image_items: [],
        input_images: [],
        isAdvisor: false,
        batchSize: 1,
        timestamp: "2026-01-01T00:00:00.000Z",
      },
    ]);
    server();
    renderStudio();
    expect(screen.getByText("stored prompt")).toBeTruthy();
    // The server has nothing: the Studio follows it.
    await waitFor(() => expect(screen.queryByText("stored prompt")).toBeNull());
    expect(screen.getByText("Start creating amazing images with AI")).toBeTruthy();
  });
});
