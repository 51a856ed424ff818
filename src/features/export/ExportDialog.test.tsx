import { fireEvent, render, screen } from '@testing-library/react';
import '../../app/i18n';
import { ExportDialog } from './ExportDialog';

/**
 * An export refused by the per-user limit (429 rate_limited, docs/security.md «Request limits»)
 * shows a calm line with the wait, in the dialog, which stays as it was.
 */
it('a 429 on «Скачать» says how long to wait; the dialog stays', async () => {
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://x');
    if ((init?.method ?? 'GET') === 'GET' && url.pathname === '/api/v3/spaces/exports')
      return { ok: true, status: 200, json: async () => ({ data: [], meta: {} }) } as Response;
    return {
      ok: false,
      status: 429,
      json: async () => ({ data: null, errors: [{ code: 'rate_limited', message: 'too many export requests', details: { retryAfter: 540 } }] }),
    } as Response;
  }) as typeof fetch;
  render(<ExportDialog subject={{ kind: 'page', pageId: 'p1', workspaceId: 'ws' }} onClose={() => undefined} />);
  fireEvent.click(screen.getByRole('button', { name: 'Скачать' }));
  expect((await screen.findByRole('alert')).textContent).toBe('Слишком много запросов. Попробуйте через 9 мин');
  expect(screen.getByRole('button', { name: 'Скачать' })).toBeTruthy();
});
