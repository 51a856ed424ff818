import { bold, bullet, callout, h2, numbered, p, table, todo, type TemplateDefinition } from './types';

export const marketingPlan: TemplateDefinition = {
  id: 'marketing-plan',
  title: 'Маркетинговый план',
  description: 'Аудитория, каналы, бюджет и показатели кампании.',
  icon: '📣',
  sets: ['marketing', 'creativity', 'sell'],
  root: {
    title: 'Маркетинговый план',
    icon: '📣',
    blocks: [
      callout('🎯', bold('Цель кампании: '), 'например, 500 новых клиентов за квартал.'),
      h2('Аудитория'),
      bullet(bold('Кто они: '), 'возраст, занятие, город'),
      bullet(bold('Что их волнует: '), '…'),
      h2('Каналы и бюджет'),
      table([
        ['Канал', 'Бюджет', 'Показатель'],
        ['Соцсети', '…', 'Охват'],
        ['Контекстная реклама', '…', 'Заявки'],
        ['Рассылка', '…', 'Открытия'],
      ]),
      h2('Календарь'),
      numbered('Подготовка материалов'),
      numbered('Запуск'),
      numbered('Подведение итогов'),
      h2('Задачи'),
      todo('Утвердить бюджет'),
      todo('Подготовить креативы'),
      p('Итоги и выводы запишите после кампании.'),
    ],
  },
};
