import { emailSuggestions } from './emailSuggestions';
import { isEmail } from '../../../schema/user';

describe('e-mail validation (spec §5)', () => {
  test.each([
    ['a@b.co', true],
    ['ivan.petrov+work@mail.ru', true],
    ['a@b', false],
    ['@b.co', false],
    ['a@.co', false],
    ['a b@c.ru', false],
    ['a@b.', false],
    ['', false],
    ['a@@b.ru', false],
  ])('%s → %s', (value, ok) => expect(isEmail(value)).toBe(ok));
});

describe('domain suggestions', () => {
  test('the local part at mail.ru, yandex.ru and this host', () => {
    expect(emailSuggestions('ivan', 'docs.example.com')).toEqual(['ivan@mail.ru', 'ivan@yandex.ru', 'ivan@docs.example.com']);
    expect(emailSuggestions('Ivan@', 'www.example.com')).toEqual(['ivan@mail.ru', 'ivan@yandex.ru', 'ivan@example.com']);
  });

  test('filtered by what is typed after the @; none once complete', () => {
    expect(emailSuggestions('ivan@ya', 'docs.example.com')).toEqual(['ivan@yandex.ru']);
    expect(emailSuggestions('ivan@d', 'docs.example.com')).toEqual(['ivan@docs.example.com']);
    expect(emailSuggestions('ivan@yandex.ru', 'docs.example.com')).toEqual([]);
    expect(emailSuggestions('ivan@gmail.com', 'docs.example.com')).toEqual([]);
  });

  test('nothing without a local part, with whitespace or a second @; a host without a dot is not offered', () => {
    expect(emailSuggestions('', 'docs.example.com')).toEqual([]);
    expect(emailSuggestions('@mail', 'docs.example.com')).toEqual([]);
    expect(emailSuggestions('iv an', 'docs.example.com')).toEqual([]);
    expect(emailSuggestions('a@b@', 'docs.example.com')).toEqual([]);
    expect(emailSuggestions('ivan', 'localhost')).toEqual(['ivan@mail.ru', 'ivan@yandex.ru']);
    expect(emailSuggestions('ivan', '127.0.0.1')).toEqual(['ivan@mail.ru', 'ivan@yandex.ru']);
    expect(emailSuggestions('ivan', 'mail.ru')).toEqual(['ivan@mail.ru', 'ivan@yandex.ru']);
  });
});
