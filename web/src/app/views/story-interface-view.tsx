import { StoryInterface } from "../../features/stories/components/story-interface";

export function StoryInterfaceView() {
  return <StoryInterface />;
}
