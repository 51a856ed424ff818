import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { withBlockStrings } from './blockStrings';

/**
 * The app's translation namespaces (Russian only). Their files (src/locales/ru/*.json) are not
 * bundled: the app fetches them at start (`src/app/translations.ts`; hashed URLs, cached by the
 * browser and the service worker), then calls initI18n. Tests call it with the files read directly
 * (test/helpers/jsdomSetup.ts). Each block type's strings are in its folder (src/app/blockStrings.ts).
 */
export const NAMESPACES = ['common', 'documentEditor', 'automation'] as const;
export type Namespace = (typeof NAMESPACES)[number];
export type Translations = Record<Namespace, Record<string, unknown>>;

export function initI18n(files: Translations): void {
  // The block types' own strings (plugins/blocks/<type>/ru.json) join the editor's.
  const translations = { ...files, documentEditor: withBlockStrings(files.documentEditor) };
  if (i18next.isInitialized) {
    for (const ns of NAMESPACES) i18next.addResourceBundle('ru', ns, translations[ns], true, true);
    return;
  }
  void i18next.use(initReactI18next).init({
    lng: 'ru',
    fallbackLng: 'ru',
    defaultNS: 'common',
    ns: [...NAMESPACES],
    resources: { ru: translations },
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}

export default i18next;
