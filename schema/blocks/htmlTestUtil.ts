import { htmlToTokens } from '../html';
import type { BlockDefinition } from './definition';

/**
 * Test helper: the data a definition reads from the first element of `html` its parse rules
 * take (null when none does), as the paste code does it (selector, then read).
 */
export function parseWith<D>(definition: BlockDefinition<string, D>, html: string, pick = '*'): D | null {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const element of Array.from(doc.body.querySelectorAll(pick))) {
    for (const rule of definition.html?.parse ?? []) {
      if (!element.matches(rule.selector)) continue;
      const data = rule.read(element, htmlToTokens(element));
      if (data !== null) return data;
    }
  }
  return null;
}

/** Serialize then parse back. */
export function roundTripHtml<D>(definition: BlockDefinition<string, D>, data: D, content: string): D | null {
  return parseWith(definition, definition.html!.serialize(data, content));
}
