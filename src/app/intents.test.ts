import { intentPath, readHomeAction, readPageAction, type Intent } from './intents';

const paramsOf = (path: string) => new URL(path, 'http://x').searchParams;

describe('navigation intents: addresses and reading them back', () => {
  test('each intent has its address', () => {
    const cases: [Intent, string][] = [
      [{ kind: 'page', pageUid: 'p1' }, '/p1'],
      [{ kind: 'page', pageUid: 'p1', action: 'share' }, '/p1?action=share'],
      [{ kind: 'page', pageUid: 'p1', search: { commentId: 'c1' } }, '/p1?commentId=c1'],
      [{ kind: 'home' }, '/'],
      [{ kind: 'publicPage', pageUid: 'p1' }, '/public/p1'],
      [{ kind: 'createWorkspace' }, '/new-workspace'],
      [{ kind: 'onboardingTemplate', template: 'kb' }, '/new-workspace?template=kb'],
      [{ kind: 'share', object: { page: 'p1' } }, '/p1?action=share'],
      [{ kind: 'share', object: { workspace: true } }, '/?action=share&object=workspace'],
      [{ kind: 'auth', type: 'oauth', provider: 'oidc', next: '/p1' }, '/login?type=oauth&provider=oidc&next=%2Fp1'],
      [{ kind: 'auth', type: 'email', email: 'a@b.ru' }, '/login?type=email&email=a%40b.ru'],
      [{ kind: 'ai', pageUid: 'p1', type: 'improve' }, '/p1?action=ai&type=improve'],
      [{ kind: 'messenger', step: 'link' }, '/?action=messenger&step=link'],
      [{ kind: 'addCover', pageUid: 'p1' }, '/p1?action=cover'],
      [{ kind: 'addComment', pageUid: 'p1' }, '/p1?action=comment'],
    ];
    for (const [intent, path] of cases) expect([intent.kind, intentPath(intent)]).toEqual([intent.kind, path]);
  });

  test('a page action reads back; an unknown one is nothing; an AI type defaults to generate', () => {
    expect(readPageAction(paramsOf(intentPath({ kind: 'ai', pageUid: 'p', type: 'continue' })))).toEqual({ action: 'ai', aiType: 'continue' });
    expect(readPageAction(paramsOf('/p?action=ai&type=delete-everything'))).toEqual({ action: 'ai', aiType: 'generate' });
    expect(readPageAction(paramsOf('/p?action=cover'))).toEqual({ action: 'cover', aiType: 'generate' });
    expect(readPageAction(paramsOf('/p?action=explode'))).toBeNull();
    expect(readPageAction(paramsOf('/p'))).toBeNull();
  });

  test('a home action reads back with its arguments', () => {
    expect(readHomeAction(paramsOf(intentPath({ kind: 'messenger', step: 'link' })))).toEqual({ action: 'messenger', object: null, step: 'link' });
    expect(readHomeAction(paramsOf(intentPath({ kind: 'share', object: { workspace: true } })))).toEqual({ action: 'share', object: 'workspace', step: null });
    expect(readHomeAction(paramsOf('/?action=cover'))).toBeNull();
  });

  test('a page uid that needs escaping is escaped', () => {
    expect(intentPath({ kind: 'page', pageUid: 'a b' })).toBe('/a%20b');
  });
});
