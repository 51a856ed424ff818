import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ImageElement } from '../../../schema/slate';
import { imageBlock, type ImageData } from '../../../schema/blocks';
import { flushEditor, installFakeXhr, installFetch, installPointerEvents, renderEditor, TEST_PAGE_ID, wireBlock } from '../../../src/editor/blocks/testing';

const FILE_ID = '9a9a9a9a-0000-4000-8000-000000000009';
const empty: ImageData = { remoteData: null, crop: null, scale: 1, align: 'center' };
const loaded: ImageData = { remoteData: { fileId: FILE_ID, title: 'Схема.png', size: 2048, mimeType: 'image/png' }, crop: null, scale: 0.5, align: 'center' };

function imageElement(editor: { children: unknown[] }): ImageElement {
  return editor.children[1] as ImageElement;
}

function answerUploadUrl() {
  return installFetch((call) =>
    call.url === '/api/file/upload_url'
      ? {
          status: 201,
          body: {
            data: { id: FILE_ID, uploadUrl: `/api/file/upload/${FILE_ID}?token=t0k`, fields: {}, fileField: 'file', expiresAt: '2030-01-01T00:00:00.000Z' },
          },
        }
      : { status: 404, body: { data: null, errors: [{ code: 'not_found', message: '' }] } },
  );
}

describe('ImageView', () => {
  beforeAll(installPointerEvents);

  it('offers an upload panel with a file input for images while empty', () => {
    renderEditor([wireBlock('img-1', 'image', empty)]);
    expect(screen.getByText('Изображение: загрузите файл или перетащите его сюда')).toBeTruthy();
    const input = screen.getByLabelText('Загрузить изображение') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toContain('image/png');
    expect(screen.getByText('или перетащите файл в эту область')).toBeTruthy();
  });

  it('uploads a chosen picture with progress and then shows it', async () => {
    const fetches = answerUploadUrl();
    const xhrs = installFakeXhr();
    const { editor } = renderEditor([wireBlock('img-1', 'image', empty)]);
    const file = new File(['x'.repeat(2048)], 'Схема.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText('Загрузить изображение'), { target: { files: [file] } });

    await waitFor(() => expect(xhrs).toHaveLength(1));
    expect(fetches[0]).toEqual({
      url: '/api/file/upload_url',
      method: 'POST',
      body: { pageId: TEST_PAGE_ID, name: 'Схема.png', mimeType: 'image/png', size: 2048 },
    });
    expect(xhrs[0].method).toBe('POST');
    expect(xhrs[0].url).toBe(`/api/file/upload/${FILE_ID}?token=t0k`);
    expect((xhrs[0].body!.get('file') as File).name).toBe('Схема.png');
    expect(screen.getByText('Загрузка «Схема.png»…')).toBeTruthy();

    act(() => xhrs[0].progress(1024, 2048));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('50%')).toBeTruthy();

    await act(async () => xhrs[0].respond(204));
    const img = (await screen.findByRole('img', { name: 'Схема.png' })) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe(`/api/file/${FILE_ID}`);
    expect(imageElement(editor).remoteData).toEqual({ fileId: FILE_ID, title: 'Схема.png', size: 2048, mimeType: 'image/png' });
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('goes back to the empty panel with a reason when the upload fails', async () => {
    answerUploadUrl();
    const xhrs = installFakeXhr();
    const { editor } = renderEditor([wireBlock('img-2', 'image', empty)]);
    fireEvent.change(screen.getByLabelText('Загрузить изображение'), { target: { files: [new File(['x'], 'big.png', { type: 'image/png' })] } });
    await waitFor(() => expect(xhrs).toHaveLength(1));
    await act(async () => xhrs[0].respond(413, { data: null, errors: [{ code: 'payload_too_large', message: 'too large' }] }));
    expect((await screen.findByRole('alert')).textContent).toContain('Файл «big.png» слишком большой');
    expect(imageElement(editor).remoteData).toBeNull();
    expect(screen.getByLabelText('Загрузить изображение')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }));
    await flushEditor();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('takes a dropped image and refuses a dropped non-image without calling the server', async () => {
    const fetches = answerUploadUrl();
    const xhrs = installFakeXhr();
    renderEditor([wireBlock('img-3', 'image', empty)]);
    const panel = screen.getByText('Изображение: загрузите файл или перетащите его сюда').parentElement!;
    fireEvent.drop(panel, { dataTransfer: { files: [new File(['%PDF'], 'a.pdf', { type: 'application/pdf' })] } });
    expect(screen.getByRole('alert').textContent).toContain('Это не изображение');
    expect(fetches).toHaveLength(0);

    fireEvent.drop(panel, { dataTransfer: { files: [new File(['gif'], 'anim.gif', { type: 'image/gif' })] } });
    await waitFor(() => expect(xhrs).toHaveLength(1));
    expect(fetches[0].body).toEqual({ pageId: TEST_PAGE_ID, name: 'anim.gif', mimeType: 'image/gif', size: 3 });
  });

  it('shows a loaded picture at its scale, and aligns and resizes it', async () => {
    const { editor, container } = renderEditor([wireBlock('img-4', 'image', loaded)]);
    const box = container.querySelector('.media-box') as HTMLElement;
    expect(box.style.width).toBe('50%');
    expect(container.querySelector('.media-row')!.className).toContain('media-align-center');

    fireEvent.click(screen.getByRole('button', { name: 'По правому краю' }));
    await flushEditor();
    expect(imageElement(editor).align).toBe('right');
    expect(container.querySelector('.media-row')!.className).toContain('media-align-right');
    expect(screen.getByRole('button', { name: 'По правому краю' }).getAttribute('aria-pressed')).toBe('true');

    // Right-aligned: the handle is on the left edge, so ArrowLeft grows the picture.
    const handle = screen.getByRole('slider', { name: 'Ширина' });
    fireEvent.keyDown(handle, { key: 'ArrowLeft' });
    await flushEditor();
    expect(imageElement(editor).scale).toBe(0.55);
    expect(box.style.width).toBe('55%');
  });

  it('a small picture at the full width (never resized) keeps its own size; resized, its scale counts', async () => {
    const { container } = renderEditor([wireBlock('img-9', 'image', { ...loaded, scale: 1 })]);
    const img = container.querySelector('.image-picture') as HTMLImageElement;
    Object.defineProperty(img, 'naturalWidth', { value: 120 });
    Object.defineProperty(img, 'naturalHeight', { value: 40 });
    fireEvent.load(img);
    const box = container.querySelector('.media-box') as HTMLElement;
    await waitFor(() => expect(box.style.maxWidth).toBe('min(100%, 120px)'));
    expect(box.style.width).toBe('100%');

    const resized = renderEditor([wireBlock('img-10', 'image', { ...loaded, scale: 0.5 })]).container;
    const small = resized.querySelector('.image-picture') as HTMLImageElement;
    Object.defineProperty(small, 'naturalWidth', { value: 120 });
    Object.defineProperty(small, 'naturalHeight', { value: 40 });
    fireEvent.load(small);
    const resizedBox = resized.querySelector('.media-box') as HTMLElement;
    await flushEditor();
    expect([resizedBox.style.width, resizedBox.style.maxWidth]).toEqual(['50%', '']);
  });

  it('resizes with the pointer: the drag sets the scale when it ends', async () => {
    const { editor, container } = renderEditor([wireBlock('img-5', 'image', { ...loaded, align: 'left' })]);
    const box = container.querySelector('.media-box') as HTMLElement;
    const row = container.querySelector('.media-row') as HTMLElement;
    jest.spyOn(box, 'getBoundingClientRect').mockReturnValue({ width: 400 } as DOMRect);
    jest.spyOn(row, 'getBoundingClientRect').mockReturnValue({ width: 800 } as DOMRect);
    const handle = screen.getByRole('slider', { name: 'Ширина' });
    fireEvent.pointerDown(handle, { clientX: 400, pointerId: 1 });
    fireEvent.pointerMove(handle, { clientX: 600, pointerId: 1 });
    expect(box.style.width).toBe('75%');
    expect(imageElement(editor).scale).toBe(0.5);
    fireEvent.pointerUp(handle, { clientX: 2000, pointerId: 1 });
    await flushEditor();
    expect(imageElement(editor).scale).toBe(1);
    expect(box.style.width).toBe('100%');
  });

  it('crops: a rectangle drawn in crop mode becomes the crop, shown through a frame', async () => {
    const { editor, container } = renderEditor([wireBlock('img-6', 'image', loaded)]);
    fireEvent.click(screen.getByRole('button', { name: 'Обрезать' }));
    const area = screen.getByTestId('image-crop-area');
    jest.spyOn(area, 'getBoundingClientRect').mockReturnValue({ left: 100, top: 50, width: 200, height: 100 } as DOMRect);
    fireEvent.pointerDown(area, { clientX: 120, clientY: 60 });
    fireEvent.pointerMove(area, { clientX: 200, clientY: 100 });
    fireEvent.pointerUp(area, { clientX: 220, clientY: 110 });
    expect(imageElement(editor).crop).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Применить' }));
    await flushEditor();
    expect(imageElement(editor).crop).toEqual({ left: 10, top: 10, width: 50, height: 50 });

    // Until the picture's natural size is known it is shown whole; then through the crop frame.
    expect(container.querySelector('[data-testid="image-crop-frame"]')).toBeNull();
    const shown = screen.getByRole('img', { name: 'Схема.png' }) as HTMLImageElement;
    Object.defineProperty(shown, 'naturalWidth', { value: 400 });
    Object.defineProperty(shown, 'naturalHeight', { value: 200 });
    fireEvent.load(shown);
    const frame = screen.getByTestId('image-crop-frame');
    const img = frame.querySelector('img') as HTMLImageElement;
    expect(img.style.width).toBe('200%');
    expect(img.style.left).toBe('-20%');
    expect(img.style.top).toBe('-20%');

    fireEvent.click(screen.getByRole('button', { name: 'Обрезать' }));
    fireEvent.click(screen.getByRole('button', { name: 'Без обрезки' }));
    await flushEditor();
    // Slate drops a property set to null; the wire data has crop: null.
    expect(imageBlock.toWireData(imageElement(editor)).crop).toBeNull();
    expect(container.querySelector('[data-testid="image-crop-frame"]')).toBeNull();
  });

  it('offers no upload, toolbar or handle on a read-only page', () => {
    renderEditor([wireBlock('img-7', 'image', empty), wireBlock('img-8', 'image', loaded)], { readOnly: true });
    expect(screen.queryByLabelText('Загрузить изображение')).toBeNull();
    expect(screen.getByText('Изображение не загружено')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Обрезать' })).toBeNull();
    expect(screen.queryByRole('slider')).toBeNull();
    expect(screen.getByRole('img', { name: 'Схема.png' })).toBeTruthy();
  });
});
