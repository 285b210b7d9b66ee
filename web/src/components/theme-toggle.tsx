import { Moon, Sun } from "lucide-react";
import { useTheme } from "../app/theme-provider";
import { iconButtonClasses } from "./button-classes";

export function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      aria-label="Toggle theme"
      title={`Switch to ${next} theme`}
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
