import { Moon, Sun } from "lucide-react";
import { useTranslation } from "react-i18next";
import { iconButtonClasses } from "../components/button-classes";
import { useTheme } from "./theme-provider";

export function ThemeToggle() {
  const { t } = useTranslation("common");
  const { theme, toggleTheme } = useTheme();
  return (
    <button
      type="button"
      aria-label={t("theme.toggle")}
      title={theme === "dark" ? t("theme.toLight") : t("theme.toDark")}
      className={iconButtonClasses}
      onClick={toggleTheme}
    >
      {theme === "dark" ? (
        <Sun aria-hidden="true" className="size-5" />
      ) : (
        <Moon aria-hidden="true" className="size-5" />
      )}
    </button>
  );
}
