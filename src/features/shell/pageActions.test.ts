import type { WireElement } from '../../../schema/element';
import { pageActions } from './PageMenu';

const page = (extra: Partial<WireElement> = {}): WireElement =>
  ({
    id: 'p',
    contentType: 'Element',
    workspaceId: 'w',
    type: 'Note',
    title: 'Шаблон',
    icon: null,
    path: ['h'],
    parentId: 'h',
    section: null,
    accessLevel: 'full',
    inFavorites: false,
    inTrash: false,
    isPublic: false,
    defaultLayoutId: null,
    cover: null,
    createdAt: '',
    createdBy: 'u',
    updatedAt: '',
    ...extra,
  }) as WireElement;

test('a row template’s page menu offers no copy, move, trash or publishing (its database’s templates do that); a page does', () => {
  const workspace = { id: 'w', role: 'admin' as const, private: false };
  expect(pageActions(page(), workspace)).toMatchObject({ clone: true, move: true, trash: true, publish: true });
  expect(pageActions(page({ databaseId: 'd', rowTemplate: true }), workspace)).toMatchObject({
    favorite: true,
    clone: false,
    move: false,
    trash: false,
    publish: false,
    copyLink: true,
  });
});
