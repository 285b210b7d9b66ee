// Living lore in the story view: the notice names the drafts ("3 new: ...") and opens them; a draft is
// accepted as it is or after edits (the card is made with them) or dismissed, and then leaves the list.
import type { LoreSuggestion } from "@storyverse/contract/lore";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { json, mockFetch } from "../../../test/mock-fetch";
import { Providers, SIGNED_IN } from "../../../test/render-app";
import { makeCard } from "../../../test/story-fixtures";
import { LORE_SUGGESTIONS_POLL_MS } from "../api/lore-suggestions";
import { LoreDraftsPanel } from "./lore-drafts-panel";
import { LoreNotice } from "./lore-notice";

const STORY = "11111111-1111-4111-8111-111111111111";
const draft = (id: string, name: string, kind: LoreSuggestion["kind"]): LoreSuggestion => ({
  id,
  name,
  kind,
  triggers: [name.replace(/^the /, "")],
  description: `You see ${name}.`,
  created_at: "2026-11-26T00:00:00.000Z",
});
const DRAFTS = [
  draft("a1111111-1111-4111-8111-111111111111", "Brannoc", "character"),
  draft("a2222222-2222-4222-8222-222222222222", "the Salt Gate", "place"),
  draft("a3333333-3333-4333-8333-333333333333", "the Heron Lantern", "thing"),
];
const card = (fields: Record<string, unknown>) => ({
  ...makeCard("c1111111-1111-4111-8111-111111111111", "Brannoc", "character"),
  description: "",
  ...fields,
});

/** A server with `drafts` waiting: accept and dismiss take one out, as the real one does. */
function server(drafts: LoreSuggestion[]) {
  let waiting = [...drafts];
  return mockFetch(({ path, method, body }) => {
    if (path === `/api/stories/${STORY}/lore-suggestions`)
      return json({ success: true, suggestions: waiting });
    const match = /lore-suggestions\/([^/]+)\/(accept|dismiss)$/.exec(path);
    if (match && method === "POST") {
      const taken = waiting.find((item) => item.id === match[1])!;
      waiting = waiting.filter((item) => item.id !== match[1]);
      if (match[2] === "dismiss") return json({ success: true });
      return json({ success: true, card: card({ name: taken.name, ...(body as object) }) });
    }
    return json({ detail: "not found" }, 404);
  });
}

describe("living lore's notice", () => {
  it("names the new drafts and opens them", async () => {
    server(DRAFTS);
    const onOpen = vi.fn();
    render(
      <Providers auth={SIGNED_IN}>
        <LoreNotice storyId={STORY} onOpen={onOpen} />
      </Providers>,
    );
    fireEvent.click(
      await screen.findByRole("button", { name: "3 new: Brannoc, the Salt Gate, the Heron Lantern" }),
    );
    expect(onOpen).toHaveBeenCalledOnce();
  });

  it("shows nothing while there is nothing new", async () => {
    const calls = server([]);
    const { container } = render(
      <Providers auth={SIGNED_IN}>
        <LoreNotice storyId={STORY} onOpen={() => {}} />
      </Providers>,
    );
    await waitFor(() => expect(calls.length).toBe(1));
    expect(container.textContent).toBe("");
  });
});

describe("living lore's notice without the event stream", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("looks every few seconds while the stream is down", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = server([]);
    render(
      <Providers auth={SIGNED_IN}>
        <LoreNotice storyId={STORY} onOpen={() => {}} />
      </Providers>,
    );
    await waitFor(() => expect(calls.length).toBe(1));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LORE_SUGGESTIONS_POLL_MS * 2 + 100);
    });
    expect(calls.length).toBe(3);
  });
});

describe("living lore's drafts", () => {
  it("accepts a draft as it is, accepts an edited one with its edits, and dismisses one", async () => {
    const calls = server(DRAFTS);
    render(
      <Providers auth={SIGNED_IN}>
        <LoreDraftsPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const brannoc = await screen.findByRole("listitem", { name: "Brannoc" });
    expect(brannoc.textContent).toContain("You see Brannoc.");
    fireEvent.click(within(brannoc).getByRole("button", { name: "Accept" }));
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "Brannoc" })).toBeNull());
    const accepted = calls.find((call) => call.path.endsWith(`${DRAFTS[0]!.id}/accept`))!;
    expect(accepted.method).toBe("POST");
    expect(accepted.body).toEqual({});

    const gate = screen.getByRole("listitem", { name: "the Salt Gate" });
    fireEvent.click(within(gate).getByRole("button", { name: "Edit" }));
    fireEvent.change(within(gate).getByLabelText("Name"), { target: { value: "Salt Gate" } });
    fireEvent.change(within(gate).getByLabelText(/Trigger words/), {
      target: { value: "Salt Gate, the gate" },
    });
    fireEvent.change(within(gate).getByLabelText("Description"), {
      target: { value: "The harbour's gate." },
    });
    fireEvent.click(within(gate).getByRole("button", { name: "Save as card" }));
    await waitFor(() => expect(screen.queryByRole("listitem", { name: "the Salt Gate" })).toBeNull());
    expect(calls.find((call) => call.path.endsWith(`${DRAFTS[1]!.id}/accept`))?.body).toEqual({
      name: "Salt Gate",
      kind: "place",
      triggers: ["Salt Gate", "the gate"],
      description: "The harbour's gate.",
    });

    const lantern = screen.getByRole("listitem", { name: "the Heron Lantern" });
    fireEvent.click(within(lantern).getByRole("button", { name: "Dismiss" }));
    await screen.findByText("Nothing new: every name the story repeats has a card.");
    expect(calls.some((call) => call.path.endsWith(`${DRAFTS[2]!.id}/dismiss`))).toBe(true);
  });

  it("says why a draft could not be made a card, and keeps it", async () => {
    mockFetch(({ path }) =>
      path.endsWith("/accept")
        ? json({ detail: "name: this story already has a card with that name.", code: "bad_request" }, 400)
        : json({ success: true, suggestions: DRAFTS.slice(0, 1) }),
    );
    render(
      <Providers auth={SIGNED_IN}>
        <LoreDraftsPanel storyId={STORY} onClose={() => {}} />
      </Providers>,
    );
    const brannoc = await screen.findByRole("listitem", { name: "Brannoc" });
    fireEvent.click(within(brannoc).getByRole("button", { name: "Accept" }));
    expect((await within(brannoc).findByRole("alert")).textContent).toContain(
      "this story already has a card with that name",
    );
    expect(screen.getByRole("listitem", { name: "Brannoc" })).toBeTruthy();
  });
});
