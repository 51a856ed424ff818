/**
 * Fields the database tests share (the server's and the browser's): a multi-select «Теги» whose
 * options are «Дизайн» (ux), «Сервер» (be) and «Проверка» (qa), in that order.
 */
export const TAGS_FIELD = {
  name: 'Теги',
  type: 'multiSelect',
  options: [
    { id: 'ux', name: 'Дизайн', color: 'blue' },
    { id: 'be', name: 'Сервер', color: 'green' },
    { id: 'qa', name: 'Проверка', color: 'red' },
  ],
} as const;
