import type { InputHTMLAttributes } from 'react';
import { SearchIcon } from './icons';
import './searchField.css';

/**
 * A text box with a magnifier, the whole box lit when focused: the quick finder, the results
 * screen and the trash's search. Its input takes every input attribute (a combobox's roles too);
 * `aria-label` is the placeholder unless given.
 */
export function SearchField({ large = false, className, ...input }: InputHTMLAttributes<HTMLInputElement> & { large?: boolean }) {
  return (
    <label className={['search-field', large ? 'search-field-large' : '', className ?? ''].filter(Boolean).join(' ')}>
      <SearchIcon size={16} />
      <input type="search" aria-label={input.placeholder} {...input} />
    </label>
  );
}
