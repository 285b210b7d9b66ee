// What a story's turn asks of its Story Cards (decision 0171): the enabled cards the narrator may see, the
// camera's scene, and living lore's look at the newest exchange. The stories module composes a story's turn;
// the story cards module read and write the story row (scene state, lore settings, the teller), so they import
// stories and the root hands their part of a turn in (`storyRoutes`' `turnCards`), as the conversation is handed
// `StoryHooks`.
import type { SceneState } from "@storyverse/contract/camera";
import type { AppContext } from "../context";
import type { TurnCard } from "../conversation";
import type { StoryRow } from "./repo";

export type TurnCards = {
  /** The story's enabled cards as a turn sees them. */
  forTurn(ctx: Pick<AppContext, "db">, userId: string, storyId: string): Promise<TurnCard[]>;
  /** What the camera keeps from earlier scenes: its words for the painter, and the preview's detail. */
  camera(
    ctx: Pick<AppContext, "db">,
    story: StoryRow,
  ): Promise<{
    text: string;
    scene: SceneState;
    characters: { id: string; name: string; appearance: string }[];
  }>;
  /** After a turn or an edit of the story's words: living lore's drafts and the camera catch up (a job). */
  afterTurn(ctx: Pick<AppContext, "jobs" | "log">, userId: string, storyId: string): Promise<void>;
};

/** A story service that plays a turn takes the cards' part of it with its context. */
export type WithTurnCards = { turnCards: TurnCards };
