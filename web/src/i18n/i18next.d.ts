// Keys are checked at compile time: t("stories:…") must name a string the English source has.
import "i18next";
import type { en } from "./locales/en";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: typeof en;
  }
}
