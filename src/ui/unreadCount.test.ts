import { unreadCount } from './unreadCount';

test('a badge shows the count up to 99, then «99+»', () => {
  expect([1, 99, 100, 2500].map(unreadCount)).toEqual(['1', '99', '99+', '99+']);
});
