import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FileElement } from '../../../schema/slate';
import { installFakeXhr, installFetch, renderEditor, TEST_PAGE_ID, wireBlock } from '../../../src/editor/blocks/testing';

const FILE_ID = '7b7b7b7b-0000-4000-8000-000000000007';

describe('FileView', () => {
  it('shows the name, the size in Russian units and a download link', () => {
    renderEditor([wireBlock('f-1', 'file', { remoteData: { fileId: FILE_ID, title: 'Отчёт.pdf', size: 1536, mimeType: 'application/pdf' } })]);
    expect(screen.getByText('Отчёт.pdf')).toBeTruthy();
    expect(screen.getByText('1,5 КБ')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'Скачать' });
    expect(link.getAttribute('href')).toBe(`/api/file/${FILE_ID}`);
    expect(link.getAttribute('download')).toBe('Отчёт.pdf');
  });

  it('uploads any kind of file into an empty block', async () => {
    const fetches = installFetch(() => ({
      status: 201,
      body: {
        data: {
          id: FILE_ID,
          uploadUrl: `/api/file/upload/${FILE_ID}?token=abc`,
          fields: { extra: '1' },
          fileField: 'file',
          expiresAt: '2030-01-01T00:00:00.000Z',
        },
      },
    }));
    const xhrs = installFakeXhr();
    const { editor } = renderEditor([wireBlock('f-2', 'file', { remoteData: null })]);
    expect(screen.getByText('Файл: загрузите его или перетащите сюда')).toBeTruthy();
    const input = screen.getByLabelText('Выбрать файл') as HTMLInputElement;
    expect(input.accept).toBe('');
    fireEvent.change(input, { target: { files: [new File(['PK'], 'архив.zip', { type: '' })] } });
    await waitFor(() => expect(xhrs).toHaveLength(1));
    // A file the browser has no type for is declared as octet-stream.
    expect(fetches[0].body).toEqual({ pageId: TEST_PAGE_ID, name: 'архив.zip', mimeType: 'application/octet-stream', size: 2 });
    expect(xhrs[0].body!.get('extra')).toBe('1');
    expect(xhrs[0].headers['X-App-Type']).toBe('Web');
    await act(async () => xhrs[0].respond(204));
    expect(await screen.findByText('архив.zip')).toBeTruthy();
    expect(screen.getByText('2 Б')).toBeTruthy();
    expect((editor.children[1] as FileElement).remoteData).toEqual({ fileId: FILE_ID, title: 'архив.zip', size: 2, mimeType: 'application/octet-stream' });
  });

  it('stays empty and says why when the server refuses the upload URL', async () => {
    installFetch(() => ({ status: 403, body: { data: null, errors: [{ code: 'forbidden', message: 'no' }] } }));
    const xhrs = installFakeXhr();
    const { editor } = renderEditor([wireBlock('f-3', 'file', { remoteData: null })]);
    fireEvent.change(screen.getByLabelText('Выбрать файл'), { target: { files: [new File(['a'], 'a.txt', { type: 'text/plain' })] } });
    expect((await screen.findByRole('alert')).textContent).toContain('Нет прав на загрузку файлов на эту страницу');
    expect(xhrs).toHaveLength(0);
    expect((editor.children[1] as FileElement).remoteData).toBeNull();
  });

  it('reports a lost connection during the upload', async () => {
    installFetch(() => ({
      status: 201,
      body: { data: { id: FILE_ID, uploadUrl: `/api/file/upload/${FILE_ID}?token=abc`, fields: {}, fileField: 'file', expiresAt: '2030-01-01T00:00:00.000Z' } },
    }));
    const xhrs = installFakeXhr();
    renderEditor([wireBlock('f-4', 'file', { remoteData: null })]);
    fireEvent.change(screen.getByLabelText('Выбрать файл'), { target: { files: [new File(['a'], 'a.txt', { type: 'text/plain' })] } });
    await waitFor(() => expect(xhrs).toHaveLength(1));
    await act(async () => xhrs[0].fail());
    expect((await screen.findByRole('alert')).textContent).toContain('Нет связи с сервером: файл «a.txt» не загружен');
  });
});
