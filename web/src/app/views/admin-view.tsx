// The admin console's view: administrators only (the account menu links it for them alone); anyone else who
// types /admin sees what an unknown screen shows, as the server answers them 404.
import { useTranslation } from "react-i18next";
import { Button } from "../../components/button";
import { AdminConsole } from "../../features/admin/components/admin-console";
import { useSession } from "../../shared/verify-session";
import { useView } from "../../shared/view-provider";

export function AdminView() {
  const { t } = useTranslation("common");
  const session = useSession();
  const { navigate } = useView();
  if (session.isPending) return null;
  if (session.data?.role === "admin") return <AdminConsole />;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-4 pt-16 text-ink">
      <h1 id="view-title" className="text-xl font-semibold tracking-tight">
        {t("unknownView.title")}
      </h1>
      <p className="text-sm leading-6 text-ink-muted">{t("unknownView.body")}</p>
      <Button size="sm" className="self-start" onClick={() => navigate("stories")}>
        {t("unknownView.toStories")}
      </Button>
    </div>
  );
}
