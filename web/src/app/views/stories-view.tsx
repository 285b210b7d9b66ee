import { StoriesPage } from "../../features/stories/components/stories-page";

export function StoriesView() {
  return <StoriesPage />;
}
