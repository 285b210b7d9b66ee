import { NewsPage } from "../../features/news/components/news-page";
import { useView } from "../../shared/view-provider";

export function NewsView() {
  const { navigate, isNavigating } = useView();
  return (
    <NewsPage
      onOpen={(destination) => {
        if (!isNavigating) navigate(destination);
      }}
    />
  );
}
