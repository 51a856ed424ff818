import { bold, bullet, callout, divider, h2, p, todo, type TemplateDefinition } from './types';

export const meetingNotes: TemplateDefinition = {
  id: 'meeting-notes',
  title: 'Заметки встречи',
  description: 'Повестка, решения и задачи после встречи — в одном месте.',
  icon: '🗓️',
  sets: ['marketing', 'it', 'sell', 'creativity', 'other'],
  root: {
    title: 'Заметки встречи',
    icon: '🗓️',
    blocks: [
      callout('📌', 'Скопируйте эту страницу перед каждой встречей и заполните её по ходу разговора.'),
      p(bold('Дата: '), '…'),
      p(bold('Участники: '), '…'),
      h2('Повестка'),
      bullet('Что сделано с прошлой встречи'),
      bullet('Главный вопрос этой встречи'),
      bullet('Разное'),
      h2('Обсуждение'),
      p('Коротко запишите главные мысли и аргументы.'),
      h2('Решения'),
      bullet('…'),
      divider(),
      h2('Задачи'),
      todo('Разослать заметки участникам'),
      todo('Назначить ответственных и сроки'),
      todo('Запланировать следующую встречу'),
    ],
  },
};
