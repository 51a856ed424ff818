import automationUrl from '../locales/ru/automation.json?url';
import commonUrl from '../locales/ru/common.json?url';
import documentEditorUrl from '../locales/ru/documentEditor.json?url';
import { takeEarly } from './earlyStart';
import { initI18n, type Namespace, type Translations } from './i18n';

/** The translation files as the build emitted them (content-hashed URLs under /assets/). */
const URLS: Record<Namespace, string> = { common: commonUrl, documentEditor: documentEditorUrl, automation: automationUrl };

/**
 * Fetches the three namespaces in parallel and initializes i18next. The URLs change with the
 * content, so the browser (and the service worker) may keep them for good.
 */
export async function loadTranslations(fetchFile: typeof fetch = fetch): Promise<void> {
  const entries = await Promise.all(
    (Object.keys(URLS) as Namespace[]).map(async (ns) => {
      // Asked for by index.html's early script already, in a build (src/app/earlyStart.ts).
      const response = await (takeEarly(URLS[ns]) ?? fetchFile(URLS[ns]));
      if (!response.ok) throw new Error(`translations ${ns}: ${response.status}`);
      return [ns, (await response.json()) as Record<string, unknown>] as const;
    }),
  );
  initI18n(Object.fromEntries(entries) as Translations);
}
