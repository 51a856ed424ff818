import { emailsInList } from './workspace';

describe('emailsInList: the e-mails of a pasted list or a CSV file', () => {
  test('one a line, or separated by commas, semicolons and tabs; lower-cased, each once, in order', () => {
    const text = 'Anna@Example.com\nboris@example.com, vera@example.com;gleb@example.com\tanna@example.com\r\n\r\n';
    expect(emailsInList(text)).toEqual({
      emails: ['anna@example.com', 'boris@example.com', 'vera@example.com', 'gleb@example.com'],
      invalid: [],
    });
  });

  test('a CSV with a header and names: cells without @ are passed over; quotes, «Name <address>» and mailto: are taken off', () => {
    const csv = 'Имя,Почта,Отдел\n"Анна Петрова","anna@example.com",Продажи\nБорис,"Борис Иванов <boris@example.com>",ИТ\nВера,mailto:vera@example.com,\n';
    expect(emailsInList(csv)).toEqual({ emails: ['anna@example.com', 'boris@example.com', 'vera@example.com'], invalid: [] });
  });

  test('cells with @ that are no e-mail are reported as written, the rest still found', () => {
    expect(emailsInList('anna@example.com\n@example.com\nboris@\nтам@где-то\nvera@example.com')).toEqual({
      emails: ['anna@example.com', 'vera@example.com'],
      invalid: ['@example.com', 'boris@', 'там@где-то'],
    });
  });

  test('nothing to find', () => {
    expect(emailsInList('')).toEqual({ emails: [], invalid: [] });
    expect(emailsInList('Имя,Почта\n')).toEqual({ emails: [], invalid: [] });
  });
});
