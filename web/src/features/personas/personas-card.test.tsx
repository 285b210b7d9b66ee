// Personas on the account page (decision 0152): the list with its default mark, a new persona sent trimmed with
// its gallery portrait and the default box, an edit that sends only what changed, Make default, and Delete after
// its question.
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { setLanguage } from "../../i18n/i18n";
import { type FetchCall, json, mockFetch } from "../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { PersonasCard } from "./personas-card";

const ASH = "00000000-0000-4000-8000-0000000000a1";
const BO = "00000000-0000-4000-8000-0000000000b2";
const WREN = "00000000-0000-4000-8000-0000000000c3";

const persona = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  description: "",
  portrait: null,
  voice: null,
  is_default: false,
  created_at: "2026-11-29T08:00:00.000Z",
  updated_at: "2026-11-29T08:00:00.000Z",
  ...extra,
});

let stored = [persona(ASH, "Ash", { description: "A lamplighter.", is_default: true }), persona(BO, "Bo")];

const IMAGE = {
  id: "img-1",
  type: "image",
  media_url: "/files/img-1.webp",
  url: "/files/img-1.webp",
  thumbnail_url: "/files/img-1-thumb.webp",
  created_at: "2026-11-29T08:00:00.000Z",
  description: "A lantern",
  source: "studio",
  story_id: null,
  story_title: null,
  file_extension: "webp",
  message_id: null,
};

function server(call: FetchCall) {
  if (call.path === "/api/voices") {
    return json({ success: true, provider: "none", default_voice: null, price_per_unit: 0, voices: [] });
  }
  if (call.path === "/api/user/images") return json({ success: true, images: [IMAGE] });
  if (call.path === "/api/personas" && call.method === "GET") {
    return json({ success: true, personas: stored, max: 50 });
  }
  if (call.path === "/api/personas" && call.method === "POST") {
    const body = call.body as { name: string };
    const made = persona(WREN, body.name, body);
    stored = [...stored, made];
    return json({ success: true, persona: made });
  }
  const one = /^\/api\/personas\/([\w-]+)$/.exec(call.path);
  if (one && call.method === "PUT") {
    const body = call.body as { is_default?: boolean };
    const changed = { ...stored.find((p) => p.id === one[1])!, ...body };
    // One default at a time, as the server keeps it.
    stored = stored.map((p) =>
      p.id === one[1] ? changed : body.is_default ? { ...p, is_default: false } : p,
    );
    return json({ success: true, persona: changed });
  }
  if (one && call.method === "DELETE") {
    stored = stored.filter((p) => p.id !== one[1]);
    return json({ success: true });
  }
  return json({ detail: "not found" }, 404);
}

afterEach(() => {
  stored = [persona(ASH, "Ash", { description: "A lamplighter.", is_default: true }), persona(BO, "Bo")];
  vi.restoreAllMocks();
});

const renderCard = () =>
  render(
    <Providers auth={SIGNED_IN}>
      <PersonasCard />
    </Providers>,
  );

describe("Personas on the account page", () => {
  it("lists the personas with the default marked", async () => {
    mockFetch(server);
    renderCard();
    const list = await screen.findByRole("list", { name: "Your personas" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringContaining("AshDefaultA lamplighter."),
      expect.stringContaining("Bo"),
    ]);
    // The default has no "Make default"; the other has.
    expect(screen.queryByRole("button", { name: "Make Ash the default" })).toBeNull();
    expect(screen.getByRole("button", { name: "Make Bo the default" })).toBeTruthy();
  });

  it("creates a persona with its name trimmed, a gallery portrait and the default box", async () => {
    const calls = mockFetch(server);
    renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "New persona" }));
    const form = screen.getByRole("form", { name: "New persona" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "  Wren  " } });
    expect(within(form).getByText("8/60")).toBeTruthy();
    fireEvent.change(within(form).getByLabelText("Description"), { target: { value: "A thief." } });
    fireEvent.click(within(form).getByRole("button", { name: "From gallery" }));
    fireEvent.click(await within(form).findByRole("button", { name: "Use image 1 as the portrait" }));
    expect(within(form).getByAltText("The persona's portrait")).toBeTruthy();
    fireEvent.click(within(form).getByLabelText("Use for stories where you choose no persona"));
    fireEvent.click(within(form).getByRole("button", { name: "Save persona" }));

    await screen.findByText("Wren");
    expect(calls.filter((c) => c.method === "POST")).toEqual([
      expect.objectContaining({
        path: "/api/personas",
        body: {
          name: "Wren",
          description: "A thief.",
          portrait_item_id: "img-1",
          voice: null,
          is_default: true,
        },
      }),
    ]);
  });

  it("refuses an empty name without a call", async () => {
    const calls = mockFetch(server);
    renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "New persona" }));
    const form = screen.getByRole("form", { name: "New persona" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "   " } });
    fireEvent.submit(form);
    expect(await within(form).findByText("Give your persona a name.")).toBeTruthy();
    expect(calls.filter((c) => c.method === "POST")).toEqual([]);
  });

  it("edits only what changed, makes another the default and deletes after asking", async () => {
    const calls = mockFetch(server);
    renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "Edit Ash" }));
    const form = screen.getByRole("form", { name: "Edit Ash" });
    fireEvent.change(within(form).getByLabelText("Description"), { target: { value: "Older now." } });
    fireEvent.click(within(form).getByRole("button", { name: "Save persona" }));
    await waitFor(() => expect(screen.queryByRole("form")).toBeNull());
    expect(await screen.findByText("Older now.")).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Make Bo the default" }));
    await waitFor(() => expect(screen.getByRole("button", { name: "Make Ash the default" })).toBeTruthy());

    fireEvent.click(screen.getByRole("button", { name: "Delete Bo" }));
    const dialog = await screen.findByRole("dialog", { name: "Delete Bo?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Delete persona" }));
    await waitFor(() => expect(screen.queryByText("Bo")).toBeNull());

    expect(calls.filter((c) => c.method !== "GET").map((c) => [c.method, c.path, c.body])).toEqual([
      ["PUT", `/api/personas/${ASH}`, { description: "Older now." }],
      ["PUT", `/api/personas/${BO}`, { is_default: true }],
      ["DELETE", `/api/personas/${BO}`, undefined],
    ]);
  });

  it("speaks German, counting the personas kept against the most allowed (decision 0155)", async () => {
    await setLanguage("de");
    // Two personas, and two is the most this account may keep.
    mockFetch((call) =>
      call.path === "/api/personas" && call.method === "GET"
        ? json({ success: true, personas: stored, max: 2 })
        : server(call),
    );
    renderCard();
    expect(screen.getByRole("heading", { name: "Personas" })).toBeTruthy();
    const list = await screen.findByRole("list", { name: "Deine Personas" });
    expect(within(list).getByText("Standard")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Bo als Standard festlegen" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ash bearbeiten" })).toBeTruthy();
    expect(
      screen.getByText(
        "Du hast 2 Personas, mehr kannst du nicht behalten. Lösche eine, um eine neue hinzuzufügen.",
      ),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Neue Persona" })).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Ash bearbeiten" }));
    const form = screen.getByRole("form", { name: "Ash bearbeiten" });
    fireEvent.change(within(form).getByLabelText("Name"), { target: { value: "  " } });
    expect(within(form).getByText("2/60")).toBeTruthy();
    fireEvent.submit(form);
    expect(await within(form).findByText("Gib deiner Persona einen Namen.")).toBeTruthy();
  });
});
