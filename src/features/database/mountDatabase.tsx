import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { DatabaseConfig, DatabaseView } from '../../../schema/blocks/database';
import type { WireRow } from '../../../schema/database';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import type { DatabaseHost } from '../../editor/blocks/databaseHost';
import DatabaseBlock, { type DatabaseBlockProps } from './DatabaseBlock';
import { fakeDatabaseServer } from './fakeDatabaseServer';

/**
 * A database block mounted in jsdom on the fake server (the jsdom tests of the grid share it): the
 * config, view and rows given (the config copied), a page the person may edit unless said, the
 * toasts drawn (`props`: more of the block's, its `defaultTemplate`). Resolves once the first row
 * shows, with the grid, its keyboard target, a cell by position and a way to draw it again with other fields.
 */
export async function mountDatabase(
  config: DatabaseConfig,
  view: DatabaseView,
  rows: WireRow[],
  host: Partial<Pick<DatabaseHost, 'canEdit' | 'live' | 'openPage'>> = {},
  props: Partial<Pick<DatabaseBlockProps, 'defaultTemplate'>> = {},
) {
  const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, view, rows);
  globalThis.fetch = server.fetch;
  const receiveBlock = jest.fn();
  const store = createStore();
  const shown = { pageId: 'page', workspaceId: null, canEdit: true, receiveBlock, live: null, isSaved: () => true, flush: async () => undefined, ...host };
  const drawn = (config: DatabaseConfig) => (
    <Provider store={store}>
      <DatabaseBlock databaseId="db" config={config} view={server.view} host={shown} {...props} />
      <Toaster />
    </Provider>
  );
  const utils = render(drawn(server.config));
  await screen.findByText(rows[0]?.data.title ?? 'Строка 0');
  const grid = screen.getByRole('grid');
  const sink = screen.getByLabelText(/стрелки — переход/);
  const cell = (row: number, col: number) => grid.querySelector(`[data-row="${row}"] [data-col="${col}"]`) as HTMLElement;
  /** The block drawn again with other fields (its `edit` from someone, a version restored). */
  const setConfig = (config: DatabaseConfig) => utils.rerender(drawn(config));
  return { server, receiveBlock, grid, sink, cell, setConfig, ...utils };
}
