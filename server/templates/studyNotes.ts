import { bold, bullet, callout, divider, h2, h3, p, quote, todo, type TemplateDefinition } from './types';

export const studyNotes: TemplateDefinition = {
  id: 'study-notes',
  title: 'Конспекты учёбы',
  description: 'Конспект лекции: главное, термины, вопросы и подготовка к экзамену.',
  icon: '🎓',
  sets: ['study', 'personal'],
  root: {
    title: 'Конспекты учёбы',
    icon: '🎓',
    blocks: [
      p(bold('Предмет: '), '…'),
      p(bold('Дата лекции: '), '…'),
      h2('Главное за занятие'),
      callout('💡', 'Три мысли, которые нужно запомнить.'),
      bullet('…'),
      h2('Термины'),
      h3('Термин'),
      p('Определение своими словами.'),
      h2('Цитаты и примеры'),
      quote('Важная цитата из лекции или учебника.'),
      divider(),
      h2('Вопросы к преподавателю'),
      bullet('…'),
      h2('Подготовка к экзамену'),
      todo('Перечитать конспект'),
      todo('Решить задачи из семинара'),
      todo('Повторить термины'),
    ],
  },
};
