import { GalleryPage } from "../../features/gallery/components/gallery-page";

export function LibraryView() {
  return <GalleryPage />;
}
