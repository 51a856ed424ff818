import i18next from 'i18next';
import { MAIN_FIELD_ID, type DatabaseConfig } from '../../../../schema/blocks/database';
import { formatFigure, measureName, xAxisTicks } from './chartConfig';

/** What a chart's tooltips, axes and caption say (issue 34 §2): the measure named, numbers the Russian way, every month on the x axis. */

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    price: { name: 'Цена', type: 'number', format: 'rub' },
    score: { name: 'Оценка', type: 'number' },
  },
};
const t = (key: string) => i18next.t(key, { ns: 'automation' });

test('the measure as the value control names it: «Число строк», or the function and the field', () => {
  expect(measureName(config, { aggregate: 'count' }, t)).toBe('Число строк');
  expect(measureName(config, { aggregate: 'sum', fieldId: 'price' }, t)).toBe('Сумма: Цена');
  expect(measureName(config, { aggregate: 'average', fieldId: 'score' }, t)).toBe('Среднее: Оценка');
});

test('figures with spaces between thousands, in the field’s format, at most two decimals', () => {
  expect(formatFigure(2000, config, { aggregate: 'count' })).toBe('2\u00a0000');
  expect(formatFigure(1234567, config, { aggregate: 'sum', fieldId: 'score' })).toBe('1\u00a0234\u00a0567');
  expect(formatFigure(7 / 3, config, { aggregate: 'average', fieldId: 'score' })).toBe('2,33');
  expect(formatFigure(2000, config, { aggregate: 'sum', fieldId: 'price' })).toBe('2\u00a0000,00\u00a0₽'); // as the grid shows a rouble cell;
  expect(formatFigure(null, config, { aggregate: 'min', fieldId: 'score' })).toBe('—');
});

test('the caption «По 2 000 строкам»', () => {
  const caption = (count: number) => i18next.t('database.chart.rows', { ns: 'automation', count, n: formatFigure(count, config, { aggregate: 'count' }) });
  expect(caption(1)).toBe('По 1 строке');
  expect(caption(2000)).toBe('По 2\u00a0000 строкам');
  expect(caption(21)).toBe('По 21 строке');
});

test('x labels: all of them, level when they fit, turned when only so, every n-th only when even turned they cannot', () => {
  const months = [
    'янв. 2026',
    'февр. 2026',
    'мар. 2026',
    'апр. 2026',
    'мая 2026',
    'июн. 2026',
    'июл. 2026',
    'авг. 2026',
    'сент. 2026',
    'окт. 2026',
    'нояб. 2026',
    'дек. 2026',
  ];
  expect(xAxisTicks(months, 1100)).toEqual({ interval: 0, angle: 0, height: 30 });
  const turned = xAxisTicks(months, 600);
  expect(turned.interval).toBe(0);
  expect(turned.angle).toBe(-45);
  expect(turned.height).toBeGreaterThan(50);
  expect(xAxisTicks(months, 250).interval).toBe(0);
  // 365 days in 600 px: every 11th day.
  const days = Array.from({ length: 365 }, (_, i) => `${i + 1} янв. 2026`);
  expect(xAxisTicks(days, 600)).toMatchObject({ interval: 10, angle: -45 });
  expect(xAxisTicks([], 600).interval).toBe(0);
});
