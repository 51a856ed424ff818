import { useRef, type ReactNode } from 'react';

export interface FilePickerProps {
  /** The file input's `accept` (types or extensions, comma-separated). */
  accept?: string;
  multiple?: boolean;
  /** The hidden input's name for assistive technology (the button shows it too). */
  label: string;
  /** The files chosen; the input is emptied after, so choosing the same file again is told again. */
  onFiles(files: File[]): void;
  /** What opens the system's file dialog: given `open`, usually a button. */
  children(open: () => void): ReactNode;
}

/**
 * A hidden `<input type="file">` opened by the caller's own control (a button, a menu item):
 * the cover, an avatar, a file cell, a CSV import.
 */
export function FilePicker({ accept, multiple, label, onFiles, children }: FilePickerProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        aria-label={label}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      {children(() => input.current?.click())}
    </>
  );
}
