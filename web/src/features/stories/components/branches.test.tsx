// Branches in the story interface (issue #28), against a stand-in server that keeps a story's branches the
// way the real one does (the branch being viewed decides what the story's calls answer): the header's switcher
// lists the branches and switching reloads the messages and the canvas; the tree nests each branch under the one
// it came from and renames and deletes them (never the last); "Branch from here" makes a branch and shows it;
// a named checkpoint is marked on its message and can be cleared.
import type { Branch } from "@storyverse/contract/branches";
import type { ChatMessage } from "@storyverse/contract/chat";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { QuotaPromptProvider } from "../../../shared/credits/quota-prompt-provider";
import { type FetchCall, json, mockFetch } from "../../../test/mock-fetch";
import { createTestQueryClient, Providers, SIGNED_IN } from "../../../test/render-app";
import { makeMessage, makeStory, NoShareDialog } from "../../../test/story-fixtures";
import { openStoryKey } from "../open-story-query";
import { StoryInterface } from "./story-interface";

const MAIN = "22222222-2222-4222-8222-222222222222";
const STORM = "44444444-4444-4444-8444-444444444444";
const CALM = "55555555-5555-4555-8555-555555555555";
const story = makeStory({ id: MAIN, title: "Salt Roads", context: "A port town" });
const LAST_BRANCH_NOTE = "A story keeps at least one branch.";
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

const exchange = (prefix: string, n: number, image: string | null = null): ChatMessage[] => [
  makeMessage({ id: `${prefix}-u${n}`, role: "user", content: `${prefix} words ${n}`, mode: "chat" }),
  makeMessage({
    id: `${prefix}-a${n}`,
    content: `${prefix} answer ${n}`,
    mode: image ? "image" : "chat",
    image_url: image,
    media_status: image ? "completed" : "none",
  }),
];

function branch(patch: Partial<Branch> & Pick<Branch, "id" | "name">): Branch {
  return {
    turns: 2,
    last_activity: minutesAgo(5),
    thumbnail: null,
    forked_from: null,
    checkpoints: [],
    ...patch,
  };
}

interface World {
  current: string;
  /** The messages of this branch cannot be read (the server fails). */
  unreadable?: string;
  branches: Branch[];
  messages: Record<string, ChatMessage[]>;
}

/** The server: the story's calls answer for the branch being viewed, as branch-scope.ts makes them. */
function serve(world: World) {
  const base = `/api/stories/${MAIN}`;
  const nameOf = (id: string) => world.branches.find((b) => b.id === id)?.name ?? "?";
  return mockFetch((call: FetchCall) => {
    const { path, method } = call;
    const body = call.body as Record<string, unknown> | undefined;
    if (path === "/api/config") {
      return json({
        capabilities: ["accounts", "text", "image"],
        providers: { text: "offline", image: "offline", video: null, transcription: null },
        offline_providers: true,
      });
    }
    if (path === "/api/credit-balance") return json({ remaining: 15, unlimited: false });
    if (path === "/api/stories") {
      return json({
        success: true,
        stories: [{ ...story, branch: { id: world.current, name: nameOf(world.current) } }],
      });
    }
    if (path === base && method === "GET") {
      return json({
        success: true,
        story: { ...story, branch: { id: world.current, name: nameOf(world.current) } },
      });
    }
    if (path === `${base}/messages?limit=30`) {
      if (world.current === world.unreadable) return json({ detail: "Something went wrong" }, 500);
      return json({ success: true, messages: world.messages[world.current] });
    }
    if (path === `${base}/redo`) return json({ success: true, redoable: 0 });
    if (path === `${base}/branches` && method === "GET") {
      return json({ success: true, current_branch_id: world.current, branches: world.branches });
    }
    if (path === `${base}/branch` && method === "PUT") {
      world.current = String(body?.branch_id);
      return json({ success: true, current_branch_id: world.current });
    }
    if (path === `${base}/branches` && method === "POST") {
      const from = String(body?.from_message_id);
      const shown = world.messages[world.current] ?? [];
      const upTo = shown.slice(0, shown.findIndex((m) => m.id === from) + 1);
      const created = branch({
        id: STORM,
        name: typeof body?.name === "string" ? body.name : `Branch ${world.branches.length + 1}`,
        turns: upTo.filter((m) => m.role === "assistant").length,
        forked_from: { branch_id: world.current, message_id: from, turn: 1, words: "Main answer 1" },
      });
      world.branches = [...world.branches, created];
      world.messages[STORM] = upTo.map((m) => ({ ...m, id: `copy-${m.id}` }));
      world.current = STORM;
      return json({ success: true, branch: created }, 201);
    }
    const one = /^\/api\/stories\/[^/]+\/branches\/([^/]+)$/.exec(path);
    if (one && method === "PATCH") {
      world.branches = world.branches.map((b) => (b.id === one[1] ? { ...b, name: String(body?.name) } : b));
      return json({ success: true, branch: world.branches.find((b) => b.id === one[1]) });
    }
    if (one && method === "DELETE") {
      const gone = world.branches.find((b) => b.id === one[1]);
      world.branches = world.branches.filter((b) => b.id !== one[1]);
      // The story then shows the branch the deleted one came from, else its oldest.
      if (gone?.id === world.current) {
        world.current = gone.forked_from?.branch_id ?? world.branches[0]?.id ?? world.current;
      }
      return new Response(null, { status: 204 });
    }
    const checkpoint = /^\/api\/stories\/[^/]+\/checkpoints\/([^/]+)$/.exec(path);
    if (checkpoint && method === "PUT") {
      const messageId = checkpoint[1] ?? "";
      const name = (body?.name as string | null) ?? null;
      world.branches = world.branches.map((b) =>
        b.id === world.current
          ? {
              ...b,
              checkpoints: [
                ...b.checkpoints.filter((c) => c.message_id !== messageId),
                ...(name ? [{ message_id: messageId, name, turn: 1 }] : []),
              ],
            }
          : b,
      );
      return json({ success: true, message_id: messageId, name });
    }
    if (path === "/api/user/verify") {
      return json({
        valid: true,
        user_id: SIGNED_IN.user?.id,
        email: SIGNED_IN.user?.email,
        username: SIGNED_IN.user?.username,
        email_verified: true,
        credits_remaining: 15,
        created_at: "2025-01-01T00:00:00.000Z",
      });
    }
    return json({ detail: `unexpected ${method} ${path}` }, 404);
  });
}

function renderStory(world: World) {
  const client = createTestQueryClient();
  client.setQueryData(openStoryKey(story.id), {
    ...story,
    branch: { id: world.current, name: world.branches.find((b) => b.id === world.current)!.name },
  });
  window.history.replaceState(null, "", `/stories/${MAIN}`);
  return render(
    <Providers auth={SIGNED_IN} client={client}>
      <QuotaPromptProvider>
        <StoryInterface ShareDialog={NoShareDialog} />
      </QuotaPromptProvider>
    </Providers>,
  );
}

const conversationText = () =>
  screen.getByRole("region", { name: "Chat", hidden: true }).querySelector('ol[aria-label="Messages"]')
    ?.textContent ?? "";

const canvasImage = () =>
  within(screen.getByRole("region", { name: "Scene canvas" })).queryByRole("img", {
    name: "Generated story scene",
  });

async function openSwitcher(name: string) {
  fireEvent.keyDown(await screen.findByRole("button", { name: `Branch: ${name}` }), { key: "Enter" });
  return screen.findByRole("menu");
}

async function openTree(current: string) {
  const menu = await openSwitcher(current);
  fireEvent.click(within(menu).getByRole("menuitem", { name: "Show the tree" }));
  const tree = await screen.findByRole("dialog", { name: "Branches" });
  await within(tree).findByRole("list", { name: "Branch tree" });
  return tree;
}

/** Main (two exchanges, its newest painted) and Storm (from Main at turn 2, one more painted exchange). */
const twoBranches = (): World => ({
  current: MAIN,
  branches: [
    branch({ id: MAIN, name: "Main", turns: 2, thumbnail: "/media/main-2.thumb.webp" }),
    branch({
      id: STORM,
      name: "Storm",
      turns: 3,
      last_activity: minutesAgo(120),
      forked_from: { branch_id: MAIN, message_id: "main-a2", turn: 2, words: "Main answer 2" },
    }),
  ],
  messages: {
    [MAIN]: [...exchange("Main", 1), ...exchange("Main", 2, "/media/main-2.png")],
    [STORM]: [
      ...exchange("Storm", 1),
      ...exchange("Storm", 2),
      ...exchange("Storm", 3, "/media/storm-3.png"),
    ],
  },
});

describe("branches in the story interface", () => {
  it("the switcher lists the branches with their turns and last activity; choosing one reloads the messages and canvas", async () => {
    const world = twoBranches();
    const calls = serve(world);
    renderStory(world);
    expect(await screen.findByText("Main answer 2")).toBeTruthy();
    await waitFor(() => expect(canvasImage()?.getAttribute("src")).toBe("/media/main-2.png"));

    const menu = await openSwitcher("Main");
    const main = await within(menu).findByRole("menuitemradio", { name: "Main" });
    const storm = within(menu).getByRole("menuitemradio", { name: "Storm" });
    expect(main.getAttribute("aria-checked")).toBe("true");
    expect(storm.getAttribute("aria-checked")).toBe("false");
    expect(within(main).getByText("2 turns · 5 minutes ago")).toBeTruthy();
    expect(within(storm).getByText("3 turns · 2 hours ago")).toBeTruthy();
    expect(main.querySelector("img")?.getAttribute("src")).toBe("/media/main-2.thumb.webp");

    fireEvent.click(storm);
    expect(await screen.findByRole("button", { name: "Branch: Storm" })).toBeTruthy();
    expect(calls.find((c) => c.method === "PUT" && c.path.endsWith("/branch"))?.body).toEqual({
      branch_id: STORM,
    });
    await waitFor(() => expect(conversationText()).toContain("Storm answer 3"));
    expect(conversationText()).not.toContain("Main answer");
    await waitFor(() => expect(canvasImage()?.getAttribute("src")).toBe("/media/storm-3.png"));

    // And back: Main's messages and scene again.
    fireEvent.click(within(await openSwitcher("Storm")).getByRole("menuitemradio", { name: "Main" }));
    expect(await screen.findByRole("button", { name: "Branch: Main" })).toBeTruthy();
    await waitFor(() => expect(conversationText()).toContain("Main answer 2"));
    expect(conversationText()).not.toContain("Storm");
    await waitFor(() => expect(canvasImage()?.getAttribute("src")).toBe("/media/main-2.png"));
  });

  it("a switch whose branch cannot be read stays on the branch shown, and the server is told so", async () => {
    const world: World = { ...twoBranches(), unreadable: STORM };
    const calls = serve(world);
    renderStory(world);
    await screen.findByText("Main answer 2");
    fireEvent.click(within(await openSwitcher("Main")).getByRole("menuitemradio", { name: "Storm" }));
    expect(await screen.findByText(/^Failed to switch branch: Something went wrong/)).toBeTruthy();
    const views = calls.filter((c) => c.method === "PUT" && c.path.endsWith("/branch")).map((c) => c.body);
    expect(views).toEqual([{ branch_id: STORM }, { branch_id: MAIN }]);
    expect(world.current).toBe(MAIN);
    expect(screen.getByRole("button", { name: "Branch: Main" })).toBeTruthy();
    expect(conversationText()).toContain("Main answer 2");
  });

  it("the tree nests each branch under the one it came from, says where it split, renames and deletes", async () => {
    const world = twoBranches();
    world.branches.push(
      branch({
        id: CALM,
        name: "Calm",
        turns: 1,
        forked_from: { branch_id: STORM, message_id: "storm-a1", turn: 1, words: "Storm answer 1" },
        checkpoints: [{ message_id: "calm-a1", name: "The quiet harbour", turn: 1 }],
      }),
    );
    const calls = serve(world);
    renderStory(world);
    const tree = await openTree("Main");

    const top = within(tree).getByRole("list", { name: "Branch tree" });
    expect(top.querySelectorAll(":scope > li")).toHaveLength(1);
    const fromMain = within(tree).getByRole("list", { name: "Branches from Main" });
    const fromStorm = within(tree).getByRole("list", { name: "Branches from Storm" });
    expect(within(fromMain).getByRole("heading", { name: "Storm" })).toBeTruthy();
    expect(within(fromStorm).getByRole("heading", { name: "Calm" })).toBeTruthy();
    expect(fromMain.contains(fromStorm)).toBe(true);
    expect(within(fromMain).getByText(/^From Main at turn 2/)).toBeTruthy();
    expect(within(fromStorm).getByText(/^From Storm at turn 1/)).toBeTruthy();
    expect(within(fromStorm).getByText("Storm answer 1").tagName).toBe("Q");
    expect(within(tree).getByRole("list", { name: "Checkpoints on Calm" }).textContent).toContain(
      "The quiet harbour",
    );
    expect(within(tree).getByText("Viewing").closest("article")?.textContent).toContain("Main");

    // Rename: Escape leaves the name and the tree as they were; Save renames.
    fireEvent.click(within(tree).getByRole("button", { name: "Rename Storm" }));
    fireEvent.keyDown(within(tree).getByRole("textbox", { name: "Branch name" }), { key: "Escape" });
    expect(within(tree).queryByRole("textbox", { name: "Branch name" })).toBeNull();
    expect(screen.getByRole("dialog", { name: "Branches" })).toBe(tree);
    fireEvent.click(within(tree).getByRole("button", { name: "Rename Storm" }));
    const input = within(tree).getByRole("textbox", { name: "Branch name" });
    fireEvent.change(input, { target: { value: "  Squall " } });
    fireEvent.click(within(tree).getByRole("button", { name: "Save" }));
    expect(await within(tree).findByRole("heading", { name: "Squall" })).toBeTruthy();
    expect(calls.find((c) => c.method === "PATCH")).toMatchObject({
      path: `/api/stories/${MAIN}/branches/${STORM}`,
      body: { name: "Squall" },
    });
    expect(within(tree).getByRole("list", { name: "Branches from Squall" })).toBeTruthy();

    // Delete, after a confirmation.
    fireEvent.click(within(tree).getByRole("button", { name: "Delete Calm" }));
    const confirm = await screen.findByRole("dialog", { name: "Delete “Calm”?" });
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete branch" }));
    await waitFor(() => expect(within(tree).queryByRole("heading", { name: "Calm" })).toBeNull());
    expect(calls.find((c) => c.method === "DELETE")?.path).toBe(`/api/stories/${MAIN}/branches/${CALM}`);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Delete “Calm”?" })).toBeNull());
    expect(within(tree).queryByRole("list", { name: "Branches from Squall" })).toBeNull();
    expect(within(tree).queryByText(LAST_BRANCH_NOTE)).toBeNull();
  });

  it("deleting the branch being viewed shows the one it came from, and the tree stays open", async () => {
    const world = { ...twoBranches(), current: STORM };
    serve(world);
    renderStory(world);
    await screen.findByText("Storm answer 3");
    const tree = await openTree("Storm");
    fireEvent.click(within(tree).getByRole("button", { name: "Delete Storm" }));
    const confirm = await screen.findByRole("dialog", { name: "Delete “Storm”?" });
    expect(within(confirm).getByText(/The story then shows another branch\./)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole("button", { name: "Delete branch" }));

    expect(await screen.findByRole("button", { name: "Branch: Main" })).toBeTruthy();
    await waitFor(() => expect(conversationText()).toContain("Main answer 2"));
    expect(conversationText()).not.toContain("Storm");
    await waitFor(() => expect(within(tree).queryByRole("heading", { name: "Storm" })).toBeNull());
    expect(screen.getByRole("dialog", { name: "Branches" })).toBe(tree);
    expect(within(tree).getByText("Viewing").closest("article")?.textContent).toContain("Main");
    expect(within(tree).getByText(LAST_BRANCH_NOTE)).toBeTruthy();
  });

  it("a story's last branch cannot be deleted, and the tree says why", async () => {
    const world: World = {
      current: MAIN,
      branches: [branch({ id: MAIN, name: "Main" })],
      messages: { [MAIN]: exchange("Main", 1) },
    };
    const calls = serve(world);
    renderStory(world);
    const tree = await openTree("Main");
    const remove = within(tree).getByRole("button", { name: "Delete Main" }) as HTMLButtonElement;
    expect(remove.disabled).toBe(true);
    const note = within(tree).getByText(LAST_BRANCH_NOTE);
    expect(remove.getAttribute("aria-describedby")).toBe(note.id);
    fireEvent.click(remove);
    expect(screen.queryByRole("dialog", { name: /^Delete/ })).toBeNull();
    expect(calls.some((c) => c.method === "DELETE")).toBe(false);
  });

  it("Branch from here makes a named branch from that exchange and shows it", async () => {
    const world: World = {
      current: MAIN,
      branches: [branch({ id: MAIN, name: "Main" })],
      messages: { [MAIN]: [...exchange("Main", 1), ...exchange("Main", 2)] },
    };
    const calls = serve(world);
    renderStory(world);
    await screen.findByText("Main answer 2");

    fireEvent.keyDown(screen.getAllByRole("button", { name: "More actions" })[0]!, { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitem", { name: "Branch from here" }));
    const dialog = await screen.findByRole("dialog", { name: "Branch from here" });
    expect(within(dialog).getByText(/up to turn 1\. “Main” stays as it is\./)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: "Storm" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create branch" }));

    expect(await screen.findByRole("button", { name: "Branch: Storm" })).toBeTruthy();
    expect(calls.find((c) => c.method === "POST" && c.path.endsWith("/branches"))?.body).toEqual({
      from_message_id: "Main-a1",
      name: "Storm",
    });
    await waitFor(() => expect(conversationText()).not.toContain("Main answer 2"));
    expect(conversationText()).toContain("Main answer 1");
    expect(screen.queryByRole("dialog", { name: "Branch from here" })).toBeNull();
    expect(await screen.findByText("Now on “Storm”")).toBeTruthy();
  });

  it("names a checkpoint on a narrator message, marks it, and clears it", async () => {
    const world: World = {
      current: MAIN,
      branches: [branch({ id: MAIN, name: "Main" })],
      messages: { [MAIN]: exchange("Main", 1) },
    };
    const calls = serve(world);
    renderStory(world);
    await screen.findByText("Main answer 1");

    fireEvent.keyDown(screen.getByRole("button", { name: "More actions" }), { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitem", { name: "Name checkpoint" }));
    const dialog = await screen.findByRole("dialog", { name: "Name checkpoint" });
    fireEvent.change(within(dialog).getByLabelText(/^Name/), { target: { value: "Before the duel" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(conversationText()).toContain("Checkpoint: Before the duel"));
    expect(calls.find((c) => c.method === "PUT" && c.path.includes("/checkpoints/"))).toMatchObject({
      path: `/api/stories/${MAIN}/checkpoints/Main-a1`,
      body: { name: "Before the duel" },
    });

    fireEvent.keyDown(screen.getByRole("button", { name: "More actions" }), { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitem", { name: "Clear checkpoint" }));
    await waitFor(() => expect(conversationText()).not.toContain("Before the duel"));
    expect(calls.filter((c) => c.path.includes("/checkpoints/")).at(-1)?.body).toEqual({ name: null });
  });
});
