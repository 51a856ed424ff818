import { act, fireEvent, render, screen } from '@testing-library/react';
import '../../app/i18n';
import { PageTitleField } from './PageTitleField';

/* The title of a folder or an embed (no document): shown at once, saved 500 ms after the last key (spec §9). */
describe('PageTitleField', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup() {
    const edited: string[] = [];
    const saved: string[] = [];
    const view = render(<PageTitleField title="Папка" editable onEdited={(title) => edited.push(title)} onSave={(title) => saved.push(title)} />);
    const field = screen.getByRole('textbox', { name: 'Название страницы' }) as HTMLInputElement;
    const typeAt = (value: string, wait: number) => {
      fireEvent.change(field, { target: { value } });
      act(() => void jest.advanceTimersByTime(wait));
    };
    return { edited, saved, field, typeAt, ...view };
  }

  it('one save of the last value, 500 ms after the last key', () => {
    const { edited, saved, typeAt } = setup();
    typeAt('Папка 1', 400);
    typeAt('Папка 12', 499);
    expect(edited).toEqual(['Папка 1', 'Папка 12']);
    expect(saved).toEqual([]);
    act(() => void jest.advanceTimersByTime(1));
    expect(saved).toEqual(['Папка 12']);
    act(() => void jest.advanceTimersByTime(5000));
    expect(saved).toEqual(['Папка 12']);
  });

  it('leaving the field, Enter or closing the screen saves at once', () => {
    const { saved, field, typeAt, unmount } = setup();
    typeAt('Один', 10);
    fireEvent.blur(field);
    expect(saved).toEqual(['Один']);
    typeAt('Два', 10);
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(saved).toEqual(['Один', 'Два']);
    typeAt('Три', 10);
    unmount();
    expect(saved).toEqual(['Один', 'Два', 'Три']);
    // Nothing twice: the timer went with the save.
    act(() => void jest.advanceTimersByTime(1000));
    expect(saved).toEqual(['Один', 'Два', 'Три']);
  });
});
