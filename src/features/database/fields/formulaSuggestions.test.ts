import { FUNCTIONS } from '../../../../schema/formula/functions';
import { MAX_SUGGESTIONS, suggestionsAt, type SuggestedField } from './formulaSuggestions';

const FIELDS: SuggestedField[] = [
  { name: 'Название', type: 'text' },
  { name: 'Цена', type: 'number' },
  { name: 'Кол-во', type: 'number' },
  { name: 'Срок сдачи', type: 'date' },
  { name: 'Проверено', type: 'boolean' },
  { name: 'Цена "опт"', type: 'number' },
];
const FUNCS = Object.entries(FUNCTIONS).map(([name, spec]) => ({ name, signature: spec.signature, description: spec.description }));

/** The suggestions at `|` in `text`, and the text once the first is taken. */
function at(marked: string, pick = 0) {
  const caret = marked.indexOf('|');
  const text = marked.replace('|', '');
  const found = suggestionsAt(text, caret, FIELDS, FUNCS);
  if (!found) return { labels: [], result: null };
  const chosen = found.items[pick];
  return {
    labels: found.items.map((s) => s.label),
    result: `${text.slice(0, found.from)}${chosen.insert}|${text.slice(found.to)}`,
    first: chosen,
  };
}

test('after a word: the functions starting with it, then the fields whose names start with or hold it', () => {
  expect(at('da|').labels).toEqual(['dateAdd', 'dateSubtract', 'dateBetween', 'dateRange', 'dateStart', 'dateEnd', 'date', 'day']);
  expect(at('da|').result).toBe('dateAdd(|');
  expect(at('round(ce|').labels).toEqual(['ceil']);
  // Russian: fields by their names, inserted as prop("…"), the caret after them.
  expect(at('1 + Це|').labels).toEqual(['Цена', 'Цена "опт"']);
  expect(at('1 + Це|').result).toBe('1 + prop("Цена")|');
  expect(at('1 + Це|', 1).result).toBe('1 + prop("Цена \\"опт\\"")|');
  // Held inside the name, ё and case folded.
  expect(at('вер|').labels).toEqual(['Проверено']);
  expect(at('СРОК|').first?.detail).toBe('дата');
  expect(at('if|').first).toMatchObject({ kind: 'function', label: 'if', detail: FUNCTIONS.if.signature, description: FUNCTIONS.if.description });
});

test('inside prop("…: the fields whose names hold what is typed, the quote and bracket closed; a name being corrected is replaced whole', () => {
  expect(at('prop("|').labels).toHaveLength(FIELDS.length);
  expect(at('prop("Ц|').labels).toEqual(['Цена', 'Цена "опт"']);
  expect(at('prop("Ц|').result).toBe('prop("Цена")|');
  expect(at('prop("во|').labels).toEqual(['Кол-во']);
  // The rest of the name and its closing, after the caret, are replaced with the choice.
  expect(at('prop("Це|нна") * 2').result).toBe('prop("Цена")| * 2');
  expect(at('prop("Срок|"').result).toBe('prop("Срок сдачи")|');
});

test('nothing: inside a text, after a number or an operator, a word nobody starts with, or a function already called', () => {
  expect(at('"da|"').labels).toEqual([]);
  expect(at('concat("Це|', 0).labels).toEqual([]);
  expect(at('12|').labels).toEqual([]);
  expect(at('1 + |').labels).toEqual([]);
  expect(at('zzz|').labels).toEqual([]);
  // The word is a whole function name already followed by its bracket: no «if» again.
  expect(at('i|f(true, 1, 2)').labels).not.toContain('if');
  expect(at('prop("Нет такого|').labels).toEqual([]);
});

test('at most MAX_SUGGESTIONS', () => {
  const many = Array.from({ length: 20 }, (_, i) => ({ name: `Поле ${i}`, type: 'text' as const }));
  expect(suggestionsAt('prop("', 6, many, FUNCS)!.items).toHaveLength(MAX_SUGGESTIONS);
});
