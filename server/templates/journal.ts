import { bullet, callout, h2, p, quote, todo, type TemplateDefinition } from './types';

export const journal: TemplateDefinition = {
  id: 'journal',
  title: 'Личный дневник',
  description: 'Страница на каждый день: настроение, благодарности и мысли.',
  icon: '📔',
  sets: ['personal'],
  root: {
    title: 'Личный дневник',
    icon: '📔',
    blocks: [
      callout('🔒', 'Эта страница видна только вам.'),
      h2('Сегодня'),
      p('Как прошёл день? Опишите его в нескольких предложениях.'),
      h2('Я благодарен(на) за'),
      bullet('…'),
      bullet('…'),
      bullet('…'),
      h2('Мысли и идеи'),
      quote('Запишите то, что не хочется забыть.'),
      h2('Завтра'),
      todo('Одно важное дело'),
      todo('Одно приятное дело'),
    ],
  },
};
