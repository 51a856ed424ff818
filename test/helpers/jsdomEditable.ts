/**
 * jsdom has no `isContentEditable`, which slate-react checks before it handles a key, a paste or a
 * copy: a test of the rendered editor calls this in its file (or describe) to give it one for
 * its tests, taken away after them.
 */
export function withContentEditable(): void {
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'isContentEditable', {
      configurable: true,
      get(this: HTMLElement) {
        return this.closest('[contenteditable="true"]') !== null;
      },
    });
  });
  afterAll(() => {
    delete (HTMLElement.prototype as { isContentEditable?: boolean }).isContentEditable;
  });
}
