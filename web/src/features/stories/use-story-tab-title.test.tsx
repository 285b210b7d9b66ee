// The tab title follows the open story: its name while it is shown (also right after the view opens,
// when the view provider titles the view), its new name after a rename, and the view's title once it
// closes.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useView } from "../../shared/view-provider";
import { Providers, SIGNED_IN } from "../../test/render-app";
import { useStoryTabTitle } from "./use-story-tab-title";

function OpenStory({ title }: { title: string }) {
  useStoryTabTitle(title);
  const { navigate } = useView();
  return (
    <button type="button" onClick={() => navigate("stories")}>
      Close story
    </button>
  );
}

function Screen({ title }: { title: string }) {
  const { view, navigate } = useView();
  if (view === "story-interface") return <OpenStory title={title} />;
  return (
    <button type="button" onClick={() => navigate("story-interface", { storyId: "s1" })}>
      Open story
    </button>
  );
}

describe("the tab title", () => {
  it("is the open story's name, follows a rename, and is the view's again when the story closes", async () => {
    window.history.replaceState(null, "", "/stories");
    const view = render(
      <Providers auth={SIGNED_IN}>
        <Screen title="The Lighthouse" />
      </Providers>,
    );
    expect(document.title).toBe("Your Stories · Storyverse");

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Open story" })));
    await screen.findByRole("button", { name: "Close story" });
    expect(document.title).toBe("The Lighthouse · Storyverse");

    view.rerender(
      <Providers auth={SIGNED_IN}>
        <Screen title="The Drowned Lighthouse" />
      </Providers>,
    );
    expect(document.title).toBe("The Drowned Lighthouse · Storyverse");

    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Close story" })));
    await screen.findByRole("button", { name: "Open story" });
    expect(document.title).toBe("Your Stories · Storyverse");
  });
});
