import type { WireBlock } from '../../schema/block';
import { MAIN_FIELD_ID, type DatabaseData } from '../../schema/blocks/database';
import type { WireRow } from '../../schema/database';
import type { WireElement } from '../../schema/element';
import { actor, type Actor } from '../../test/helpers/pages';
import { api, createTestApp, errorCode, expectOk, jsonQueryString as q, type TestApp } from '../../test/helpers/testApp';

/*
 * A gallery's card pictures (issue 38, docs/api/databases.md «Gallery and list») on a real server
 * and the project's database: `preview` on a rows read gives each row its page's cover, or the
 * first picture of its content (the top level first, in its order); a gallery view keeps its
 * picture and card size; a files field's picture is named by `cover`.
 */

let t: TestApp;
let ann: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp();
  ann = await actor(t, 'ann.gallery@example.com');
});
afterAll(async () => {
  await t.close();
});

const image = (pageId: string, fileId: string, parentId?: string, placeAfter?: string) =>
  api(t, ann.cookie, 'POST', `${S}/block`, {
    pageId,
    ...(parentId ? { parentId } : {}),
    ...(placeAfter ? { placeAfter } : {}),
    type: 'image',
    data: { remoteData: { fileId, title: `${fileId}.png`, size: 10, mimeType: 'image/png' }, crop: null, scale: 1, align: 'center' },
  });

test('rows read with a preview carry their pages’ covers or first pictures; a gallery view keeps its settings', async () => {
  const page = expectOk<WireElement>(
    await api(t, ann.cookie, 'POST', `${S}/section/private`, { title: 'Галерея' }, { 'x-workspace-id': ann.workspaceId }),
    201,
  );
  const data = {
    config: { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, photos: { name: 'Фото', type: 'files' } } },
    view: { layouts: [{ uid: 'g', type: 'gallery', orderedFields: [{ fieldId: MAIN_FIELD_ID, isWrap: false }] }] },
  } as unknown as DatabaseData;
  const block = expectOk<WireBlock>(await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'database', data }), 201);
  const made = expectOk<WireRow[]>(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/rows`, { rows: [{ title: 'С картинками' }, { title: 'С обложкой' }, { title: 'Пустая' }] }),
    201,
  );
  const [pictured, covered, empty] = made;
  // Pictures in the content: one nested under a list item made first, then two at the top level; the first of those is the card's.
  const toggle = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: pictured.id, type: 'bulletList', data: { tokens: [{ text: 'Ещё' }] } }),
    201,
  );
  expectOk(await image(pictured.id, 'nested', toggle.id), 201);
  const first = expectOk<WireBlock>(await image(pictured.id, 'first'), 201);
  const between = expectOk<WireBlock>(
    await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: pictured.id, type: 'text', placeAfter: first.id, data: { tokens: [{ text: 'между' }] } }),
    201,
  );
  expectOk(await image(pictured.id, 'later', undefined, between.id), 201);
  expectOk(await api(t, ann.cookie, 'PATCH', `${S}/element/${covered.id}`, { cover: { contentType: 'LibraryCover', imageId: 'gradient-forest' } }));

  const read = async (preview?: string) =>
    Object.fromEntries(
      expectOk<WireRow[]>(
        await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/rows?${q({ viewId: 'g', limit: 10, ...(preview ? { preview } : {}) })}`),
      ).map((row) => [row.data.title, row.preview ?? null]),
    );
  const byContent = await read('pageContent');
  expect(byContent[pictured.data.title]).toEqual({ fileId: expect.any(String) });
  // The top level's first picture in its order (the list item's nested one is not the first).
  expect((byContent[pictured.data.title] as { fileId: string }).fileId).toBe('first');
  expect(byContent[covered.data.title]).toBeNull();
  const byCover = await read('pageCover');
  expect(byCover[covered.data.title]).toEqual({ cover: { contentType: 'LibraryCover', imageId: 'gradient-forest', position: 50 } });
  expect(byCover[pictured.data.title]).toBeNull();
  expect(byCover[empty.data.title]).toBeNull();
  // No preview asked: none given.
  expect(Object.values(await read())).toEqual([null, null, null]);
  const bad = await api(t, ann.cookie, 'GET', `${S}/database/${block.id}/rows?${q({ preview: 'everything' })}`);
  expect([bad.statusCode, errorCode(bad)]).toEqual([422, 'validation_failed']);

  // The view keeps its picture and size; a files field's picture names its field (not another type).
  expectOk(
    await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/g`, {
      layout: { cardPreview: 'files', cover: { fieldId: 'photos' }, cardSize: 'large' },
    }),
  );
  const saved = expectOk<WireBlock>(await api(t, ann.cookie, 'GET', `${S}/block/${block.id}`));
  expect((saved.data as unknown as DatabaseData).view.layouts[0]).toMatchObject({
    type: 'gallery',
    cardPreview: 'files',
    cover: { fieldId: 'photos' },
    cardSize: 'large',
  });
  const wrongSize = await api(t, ann.cookie, 'POST', `${S}/database/${block.id}/views/g`, { layout: { cardSize: 'huge' } });
  expect([wrongSize.statusCode, errorCode(wrongSize)]).toEqual([422, 'validation_failed']);
});
