import { callout, divider, h2, todo, type TemplateDefinition } from './types';

export const todoList: TemplateDefinition = {
  id: 'todo-list',
  title: 'Список задач',
  description: 'Простой список дел: сегодня, на неделе и когда-нибудь.',
  icon: '✅',
  sets: ['personal', 'study', 'other'],
  root: {
    title: 'Список задач',
    icon: '✅',
    blocks: [
      callout('✍️', 'Отмечайте сделанное — и двигайте задачи между разделами.'),
      h2('Сегодня'),
      todo('Самое важное дело дня'),
      todo('Ответить на письма'),
      todo('Разобрать заметки', true),
      h2('На этой неделе'),
      todo('…'),
      divider(),
      h2('Когда-нибудь'),
      todo('…'),
    ],
  },
};
