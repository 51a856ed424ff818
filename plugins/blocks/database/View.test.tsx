import { Node } from 'slate';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';

describe('database views without a page around them', () => {
  test('a database without a page to act in (no host) shows a card with its columns; its rows show their icon and title; both are void and keep their data', () => {
    const database = {
      type: 'databaseBlock',
      uid: 'db',
      version: 3,
      config: { fields: { MAIN_FIELD: { name: 'Название', type: 'text' }, f1: { name: 'Статус', type: 'select', options: [] } } },
      view: { layouts: [] },
      children: [{ text: '' }],
    } as unknown as BlockElement;
    const row = {
      type: 'databaseRowBlock',
      uid: 'r1',
      version: 1,
      depth: 1,
      title: 'Первая задача',
      icon: '✅',
      values: {},
      children: [{ text: '' }],
    } as unknown as BlockElement;
    const untitled = {
      type: 'databaseRowBlock',
      uid: 'r2',
      version: 1,
      depth: 1,
      title: '',
      icon: null,
      values: {},
      children: [{ text: '' }],
    } as unknown as BlockElement;
    const { editor, container } = renderEditor([database, row, untitled]);
    const card = container.querySelector('[data-block-id="db"] [role="group"]')!;
    expect(card.getAttribute('aria-label')).toBe('База данных');
    expect(card.textContent).toContain('Столбцы: Название, Статус');
    expect(container.querySelector('[data-block-id="r1"]')!.textContent).toContain('✅Первая задача');
    expect(container.querySelector('[data-block-id="r2"] .database-row-title')!.textContent).toBe('Без названия');
    expect(editor.isVoid(editor.children[1] as BlockElement)).toBe(true);
    expect(editor.isVoid(editor.children[2] as BlockElement)).toBe(true);
    expect(editor.children[1]).toEqual(database);
    expect(Node.string(editor.children[2])).toBe('');
  });
});
