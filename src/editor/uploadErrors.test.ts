import { createPageEditor } from './pageEditor';
import { ApiRequestError } from '../app/api';
import ru from '../locales/ru/documentEditor.json';
import common from '../locales/ru/common.json';
import { getUploadState, startUpload, uploadErrorKind, uploader } from './upload';

const PAGE = '0f0f0f0f-0000-4000-8000-00000000000f';

describe('why an upload failed', () => {
  afterEach(() => jest.restoreAllMocks());

  test('a full workspace (413 file.quota_exceeded) is told apart from a file too large (413 payload_too_large)', () => {
    expect(uploadErrorKind(new ApiRequestError(413, 'file.quota_exceeded', 'full'))).toBe('quotaExceeded');
    expect(uploadErrorKind(new ApiRequestError(413, 'payload_too_large', 'big'))).toBe('tooLarge');
  });

  test('the block shows the Russian message of a full workspace', async () => {
    const editor = createPageEditor();
    editor.children = [
      { type: 'pageHeadingBlock', uid: `pageHeading_${PAGE}`, version: 1, children: [{ text: 'T' }] },
      { type: 'fileBlock', uid: 'f1', version: 1, remoteData: null, children: [{ text: '' }] },
    ] as never;
    jest.spyOn(uploader, 'upload').mockRejectedValue(new ApiRequestError(413, 'file.quota_exceeded', 'the workspace storage is full'));
    expect(await startUpload(editor, 'f1', new File(['abc'], 'отчёт.pdf', { type: 'application/pdf' }))).toBe(false);
    const state = getUploadState('f1');
    expect(state).toEqual({ status: 'failed', fileName: 'отчёт.pdf', error: 'quotaExceeded' });
    expect(ru.media.errors.quotaExceeded).toMatch(/закончилось/);
    expect(common.comments.uploadQuotaExceeded).toMatch(/закончилось/);
  });
});
