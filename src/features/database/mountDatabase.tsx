import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { DatabaseConfig, DatabaseView } from '../../../schema/blocks/database';
import type { WireRow } from '../../../schema/database';
import { createStore } from '../../app/store';
import { Toaster } from '../../ui/Toast';
import type { DatabaseHost } from '../../editor/blocks/databaseHost';
import DatabaseBlock from './DatabaseBlock';
import { fakeDatabaseServer } from './fakeDatabaseServer';

/**
 * A database block mounted in jsdom on the fake server (the jsdom tests of the grid share it): the
 * config, view and rows given (the config copied), a page the person may edit unless said, the
 * toasts drawn. Resolves once the first row shows, with the grid, its keyboard target and a cell
 * by position.
 */
export async function mountDatabase(
  config: DatabaseConfig,
  view: DatabaseView,
  rows: WireRow[],
  host: Partial<Pick<DatabaseHost, 'canEdit' | 'live' | 'openPage'>> = {},
) {
  const server = fakeDatabaseServer(JSON.parse(JSON.stringify(config)) as DatabaseConfig, view, rows);
  globalThis.fetch = server.fetch;
  const receiveBlock = jest.fn();
  const utils = render(
    <Provider store={createStore()}>
      <DatabaseBlock
        databaseId="db"
        config={server.config}
        view={server.view}
        host={{ pageId: 'page', workspaceId: null, canEdit: true, receiveBlock, live: null, isSaved: () => true, flush: async () => undefined, ...host }}
      />
      <Toaster />
    </Provider>,
  );
  await screen.findByText(rows[0]?.data.title ?? 'Строка 0');
  const grid = screen.getByRole('grid');
  const sink = screen.getByLabelText(/стрелки — переход/);
  const cell = (row: number, col: number) => grid.querySelector(`[data-row="${row}"] [data-col="${col}"]`) as HTMLElement;
  return { server, receiveBlock, grid, sink, cell, ...utils };
}
