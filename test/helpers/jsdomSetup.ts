import fs from 'node:fs';
import path from 'node:path';
import { TextDecoder, TextEncoder } from 'node:util';
import { initI18n, NAMESPACES, type Translations } from '../../src/app/i18n';

// jsdom leaves out a few web APIs that Node has and the router uses.
Object.assign(globalThis, { TextEncoder, TextDecoder });
// jsdom lacks structuredClone too (the editor copies Slate nodes, plain JSON, with it).
globalThis.structuredClone ??= ((value: unknown) => JSON.parse(JSON.stringify(value))) as typeof structuredClone;

// The app fetches its translation files at start (src/app/translations.ts); tests read them here.
const LOCALES = path.resolve(__dirname, '../../src/locales/ru');
initI18n(Object.fromEntries(NAMESPACES.map((ns) => [ns, JSON.parse(fs.readFileSync(path.join(LOCALES, `${ns}.json`), 'utf8'))])) as Translations);
