import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import common from '../locales/ru/common.json';
import documentEditor from '../locales/ru/documentEditor.json';

/** Russian is the only language; resources are bundled so the first paint already has its words. */
export const resources = { ru: { common, documentEditor } } as const;

void i18next.use(initReactI18next).init({
  lng: 'ru',
  fallbackLng: 'ru',
  defaultNS: 'common',
  ns: ['common', 'documentEditor'],
  resources,
  interpolation: { escapeValue: false },
});

export default i18next;
