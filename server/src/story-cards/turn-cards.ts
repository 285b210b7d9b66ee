// The story cards' part of a story's turn (stories/turn-cards.ts says what a turn asks): the enabled cards, the
// camera's scene, living lore after the turn. The root hands it to the story routes (decision 0171).
import type { TurnCards } from "../stories";
import { cardsForTurn } from "./cards";
import { cameraOf, queueLivingLore } from "./living-lore";

export const storyCardsOfATurn: TurnCards = {
  forTurn: cardsForTurn,
  camera: cameraOf,
  afterTurn: queueLivingLore,
};
