import i18next from './i18n';
import common from '../locales/ru/common.json';
import editorFile from '../locales/ru/documentEditor.json';
import { withBlockStrings } from './blockStrings';
import automation from '../locales/ru/automation.json';

/** Every counted key (one given in plural forms) of a namespace, without its form suffix. */
function countedKeys(tree: unknown, prefix = ''): string[] {
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) => {
    if (typeof value === 'object') return countedKeys(value, `${prefix}${key}.`);
    const form = /^(.*)_(one|few|many|other)$/.exec(key);
    return form ? [`${prefix}${form[1]}`] : [];
  });
}

describe('counted strings in Russian', () => {
  const namespaces = { common, documentEditor: withBlockStrings(editorFile), automation };

  it('every counted key has the three forms Russian integers need', () => {
    for (const [ns, tree] of Object.entries(namespaces)) {
      for (const key of new Set(countedKeys(tree))) {
        for (const form of ['one', 'few', 'many'])
          expect({ ns, key, form, has: i18next.exists(`${key}_${form}`, { ns }) }).toEqual({ ns, key, form, has: true });
      }
    }
  });

  it('agrees with the number: 1, 2, 5, 11, 21, 22', () => {
    const say = (key: string, count: number, options: Record<string, unknown> = {}) => i18next.t(key, { count, ...options });
    const cases: Array<[string, number[], string[], Record<string, unknown>?]> = [
      [
        'wizard.sharing.willInvite',
        [1, 2, 5, 11, 21, 22],
        ['Пригласим 1 человека', 'Пригласим 2 человек', 'Пригласим 5 человек', 'Пригласим 11 человек', 'Пригласим 21 человека', 'Пригласим 22 человек'],
      ],
      ['share.invited', [1, 2, 5, 21], ['Доступ выдан 1 человеку', 'Доступ выдан 2 людям', 'Доступ выдан 5 людям', 'Доступ выдан 21 человеку']],
      ['workspaceSettings.added', [1, 2, 5, 21], ['Добавлен 1 участник', 'Добавлено 2 участника', 'Добавлено 5 участников', 'Добавлен 21 участник']],
      ['wizard.selectTemplates.chosen', [1, 2, 5], ['Выбран 1 шаблон', 'Выбрано 2 шаблона', 'Выбрано 5 шаблонов']],
      ['wizard.selectTemplates.pages', [1, 3, 12], ['1 страница', '3 страницы', '12 страниц']],
      ['comments.replies', [1, 2, 5, 21], ['1 ответ', '2 ответа', '5 ответов', '21 ответ']],
      ['inbox.attachments', [1, 2, 5], ['1 вложение', '2 вложения', '5 вложений']],
      ['sidebar.unread', [1, 2, 5], ['1 непрочитанное уведомление', '2 непрочитанных уведомления', '5 непрочитанных уведомлений']],
      [
        'inbox.text.reactionOthers',
        [1, 2, 5],
        [
          'и ещё 1 человек отреагировали 👍 на ваш комментарий',
          'и ещё 2 человека отреагировали 👍 на ваш комментарий',
          'и ещё 5 человек отреагировали 👍 на ваш комментарий',
        ],
        { code: '👍' },
      ],
    ];
    for (const [key, counts, expected, options] of cases) expect(counts.map((count) => say(key, count, options))).toEqual(expected);
  });
});
