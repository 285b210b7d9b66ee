// The avatar button and its menu: Manage Credits, the interface language, the admin console (administrators
// only) and Logout. Radix gives it roving focus, typeahead, Escape and the menu roles. It is not modal: a modal
// menu locks page scroll by injecting a <style> element, which the app's Content-Security-Policy (style-src
// 'self') refuses.
//
// The language is a submenu of radio items rather than the language picker's <select>: a native select inside
// a menu fights the menu for its keys and focus. Choosing a language works as the picker does (decision 0155):
// the interface switches at once and the choice is kept on the account.

import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { LOCALES, type Locale } from "@storyverse/contract/accounts";
import { Check, ChevronRight, Coins, Languages, LogOut, ShieldCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { setLanguage } from "../../i18n/i18n";
import { directionOf, isAppLanguage, isLocale, LANGUAGE_NAMES } from "../../i18n/languages";
import type { StoredUser } from "../../lib/storage";
import { useAuth } from "../../shared/auth";
import { saveLanguage } from "../../shared/language/save-language";
import { avatarLetter, UserAvatar } from "./user-avatar";

const itemClasses =
  "flex h-11 cursor-pointer items-center gap-3 rounded-xl px-3 text-sm font-medium text-ink outline-none " +
  "transition-colors duration-150 data-highlighted:bg-surface-2 data-highlighted:text-ink";

const panelClasses =
  "z-[60] rounded-2xl border border-line bg-surface p-2 text-ink shadow-lifted motion-safe:animate-fade-in";

interface AccountMenuProps {
  user: StoredUser | null;
  onManageCredits: () => void;
  /** Present for an administrator: opens the admin console. */
  onOpenAdmin?: (() => void) | undefined;
  onLogout: () => void;
}

/** The interface language: switched at once, then kept on the account (an unreachable server keeps it here). */
function useChooseLanguage() {
  const { isAuthenticated } = useAuth();
  return async (locale: Locale) => {
    await setLanguage(locale);
    if (isAuthenticated) await saveLanguage(locale).catch(() => undefined);
  };
}

export function AccountMenu({ user, onManageCredits, onOpenAdmin, onLogout }: AccountMenuProps) {
  const { t, i18n } = useTranslation("common");
  const chooseLanguage = useChooseLanguage();
  const language: Locale = isLocale(i18n.language) ? i18n.language : "en";
  // The submenu opens towards the end of the line: to the left in a right-to-left language.
  const dir = isAppLanguage(i18n.language) ? directionOf(i18n.language) : "ltr";
  return (
    <DropdownMenu.Root modal={false} dir={dir}>
      <DropdownMenu.Trigger
        aria-label={t("accountMenu.label")}
        className="grid size-10 shrink-0 place-items-center rounded-full transition duration-200 hover:brightness-110 data-[state=open]:ring-2 data-[state=open]:ring-accent-400"
      >
        <UserAvatar letter={avatarLetter(user)} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          collisionPadding={12}
          className={`w-64 ${panelClasses}`}
        >
          <div className="flex items-center gap-3 px-3 py-2">
            <UserAvatar letter={avatarLetter(user)} />
            <div className="min-w-0">
              <p data-user-text className="truncate text-sm font-semibold">
                {user?.username}
              </p>
              <p data-user-text className="truncate text-xs text-ink-muted">
                {user?.email}
              </p>
            </div>
          </div>
          <DropdownMenu.Separator className="my-2 h-px bg-line" />
          <DropdownMenu.Item className={itemClasses} onSelect={onManageCredits}>
            <Coins aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
            {t("accountMenu.manageCredits")}
          </DropdownMenu.Item>
          <DropdownMenu.Sub>
            <DropdownMenu.SubTrigger className={`${itemClasses} data-[state=open]:bg-surface-2`}>
              <Languages aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
              <span className="min-w-0 flex-1">{t("language.label")}</span>
              <span lang={language} className="text-xs text-ink-muted">
                {LANGUAGE_NAMES[language]}
              </span>
              <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-ink-muted rtl:rotate-180" />
            </DropdownMenu.SubTrigger>
            <DropdownMenu.Portal>
              <DropdownMenu.SubContent
                sideOffset={6}
                alignOffset={-8}
                collisionPadding={12}
                className={`min-w-44 ${panelClasses}`}
              >
                <DropdownMenu.RadioGroup
                  value={language}
                  onValueChange={(value) => {
                    if (isLocale(value)) void chooseLanguage(value);
                  }}
                >
                  {LOCALES.map((locale) => (
                    <DropdownMenu.RadioItem key={locale} value={locale} lang={locale} className={itemClasses}>
                      <span className="grid size-4 shrink-0 place-items-center">
                        <DropdownMenu.ItemIndicator>
                          <Check aria-hidden="true" className="size-4 text-accent-ink" />
                        </DropdownMenu.ItemIndicator>
                      </span>
                      {LANGUAGE_NAMES[locale]}
                    </DropdownMenu.RadioItem>
                  ))}
                </DropdownMenu.RadioGroup>
              </DropdownMenu.SubContent>
            </DropdownMenu.Portal>
          </DropdownMenu.Sub>
          {onOpenAdmin ? (
            <DropdownMenu.Item className={itemClasses} onSelect={onOpenAdmin}>
              <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-accent-ink" />
              {t("accountMenu.admin")}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Item className={itemClasses} onSelect={onLogout}>
            <LogOut aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
            {t("accountMenu.logout")}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
