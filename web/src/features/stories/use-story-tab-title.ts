// The browser tab is named after the open story ("The Lighthouse · Storyverse"), so a player with many
// tabs finds it; when the story closes, the tab takes the view's own title again (the view provider's).
import { useEffect } from "react";
import { viewTitle } from "../../shared/views";

const storyTabTitle = (title: string) => `${title} · Storyverse`;

export function useStoryTabTitle(title: string): void {
  // A passive effect: it runs after the view provider's layout effect has titled the view it opened with,
  // so the story's name wins while the story is shown.
  useEffect(() => {
    const shown = storyTabTitle(title);
    document.title = shown;
    return () => {
      // Only if nothing else has titled the tab since (moving to another view titles it first).
      if (document.title === shown) document.title = viewTitle("story-interface");
    };
  }, [title]);
}
