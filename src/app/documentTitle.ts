import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

/**
 * The document's title names the screen: «<screen> — <product>» («Поиск — Страницы», a page's
 * «<title> — Страницы»), the product alone where there is no screen to name. The product's name
 * is the translations' `appName`, the same the server's index.html carries in its `<title>`.
 */
export function documentTitle(t: TFunction, screen?: string | null): string {
  const product = t('appName');
  return screen ? `${screen} — ${product}` : product;
}

/** The screens and modals that name themselves, innermost (latest) last: the title is the last one's. */
const claims: { text: string }[] = [];

const show = () => {
  const top = claims[claims.length - 1];
  if (top) document.title = top.text;
};

/**
 * Names the screen in the document's title while the component is mounted (`null`: says nothing,
 * for a component that names a screen only sometimes). A modal that is a screen of its own (the
 * trash, the settings) names itself over the screen under it, which takes the title back when it
 * closes — also if that screen's name changed meanwhile.
 */
export function useDocumentTitle(screen: string | null | undefined): void {
  const { t } = useTranslation();
  const text = screen === null ? null : documentTitle(t, screen);
  const claim = useRef<{ text: string } | null>(null);
  useLayoutEffect(() => {
    if (text === null) return;
    const mine = { text };
    claim.current = mine;
    claims.push(mine);
    show();
    return () => {
      claims.splice(claims.indexOf(mine), 1);
      claim.current = null;
      show();
    };
    // Claimed once while named; a new name only changes the claim's words (below), not its place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text === null]);
  useEffect(() => {
    if (text === null || !claim.current) return;
    claim.current.text = text;
    show();
  }, [text]);
}
