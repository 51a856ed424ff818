import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { cycleRegion, focusRegion } from '../../ui/focusRegions';
import './skipLinks.css';

/** Waits a few frames for an element that a state change is about to draw (the phone drawer, a shown sidebar). */
function whenThere(find: () => HTMLElement | null, then: (element: HTMLElement) => void, frames = 10): void {
  const element = find();
  if (element) then(element);
  else if (frames > 0) requestAnimationFrame(() => whenThere(find, then, frames - 1));
}

const sidebar = () => document.querySelector<HTMLElement>('.shell nav.sidebar');

/**
 * The first Tab stops of the signed-in app (issue 37): «Перейти к содержимому» (the page's text,
 * else the screen's main part) and «Перейти к меню» (the sidebar, shown first when it is hidden
 * or a phone's drawer); seen only while focused. Also F6 / Shift+F6: the focus goes round the
 * regions (sidebar, page top bar, page content, open panels), unless a modal dialog is open.
 */
export function SkipLinks({ showMenu }: { showMenu(): void }) {
  const { t } = useTranslation();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'F6' || event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      event.preventDefault();
      cycleRegion(event.shiftKey ? -1 : 1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const toContent = () => {
    const main = document.querySelector<HTMLElement>('.shell-main');
    const editor = main?.querySelector<HTMLElement>('[data-slate-editor]');
    if (editor) focusRegion(editor);
    else if (main) {
      main.setAttribute('tabindex', '-1');
      main.focus();
    }
  };
  const toMenu = () => {
    if (!sidebar()) showMenu();
    whenThere(sidebar, focusRegion);
  };

  return (
    <div className="skip-links">
      <a
        className="skip-link"
        href="#content"
        onClick={(event) => {
          event.preventDefault();
          toContent();
        }}
      >
        {t('skipLinks.content')}
      </a>
      <a
        className="skip-link"
        href="#menu"
        onClick={(event) => {
          event.preventDefault();
          toMenu();
        }}
      >
        {t('skipLinks.menu')}
      </a>
    </div>
  );
}
