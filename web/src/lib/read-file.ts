// A picked or dropped file as a data URL, the form the API takes uploaded images in (the Studio's inputs, a
// Story Card's portrait).
import { i18n } from "../i18n/i18n";

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(i18n.t("common:readFile.failed")));
    reader.readAsDataURL(file);
  });
}
