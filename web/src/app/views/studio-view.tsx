import { StudioPage } from "../../features/studio/components/studio-page";

export function StudioView() {
  return <StudioPage />;
}
