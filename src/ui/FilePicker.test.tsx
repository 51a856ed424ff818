import { fireEvent, render, screen } from '@testing-library/react';
import { FilePicker } from './FilePicker';

function renderPicker(onFiles: (files: File[]) => void) {
  render(
    <FilePicker accept="image/png" multiple label="Выбрать файл" onFiles={onFiles}>
      {(open) => (
        <button type="button" onClick={open}>
          Загрузить
        </button>
      )}
    </FilePicker>,
  );
  return screen.getByLabelText('Выбрать файл') as HTMLInputElement;
}

test('the caller’s button opens the hidden file input', () => {
  const input = renderPicker(() => undefined);
  expect(input.type).toBe('file');
  expect(input.hidden).toBe(true);
  expect(input.accept).toBe('image/png');
  expect(input.multiple).toBe(true);
  const click = jest.spyOn(input, 'click').mockImplementation(() => undefined);
  fireEvent.click(screen.getByRole('button', { name: 'Загрузить' }));
  expect(click).toHaveBeenCalledTimes(1);
});

test('the files chosen are told as a list, and the input is emptied so the same file can be chosen again', () => {
  const onFiles = jest.fn();
  const input = renderPicker(onFiles);
  const files = [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.png', { type: 'image/png' })];
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  const emptied = jest.fn();
  Object.defineProperty(input, 'value', { get: () => 'C:\\fakepath\\a.png', set: emptied, configurable: true });
  fireEvent.change(input);
  expect(onFiles).toHaveBeenCalledWith(files);
  expect(emptied).toHaveBeenCalledWith('');

  // The dialog closed with nothing chosen: nothing to tell.
  Object.defineProperty(input, 'files', { value: [], configurable: true });
  fireEvent.change(input);
  expect(onFiles).toHaveBeenCalledTimes(1);
});
