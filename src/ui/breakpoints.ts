/**
 * The layout breakpoints (product.md §9): xs up to 600 px, s 601–960, m 961–1260, l from 1261.
 * The one definition of them, for TypeScript and CSS alike: style sheets name them as custom
 * media — `@media (--xs)`, `(--s)`, `(--m)`, `(--l)`, and the ranges `(--up-to-s)`, `(--up-to-m)`,
 * `(--from-s)`, `(--from-m)` — which the build (vite.config.ts, `customMediaPlugin`) writes as the
 * queries below; code reads the same queries (`MEDIA`: `useIsPhone`, `onPhone`).
 */
export const BREAKPOINTS = { xs: 600, s: 960, m: 1260 } as const;

const upTo = (px: number) => `(max-width: ${px}px)`;
const from = (px: number) => `(min-width: ${px + 1}px)`;

/** Each named range as a media query. */
export const MEDIA = {
  xs: upTo(BREAKPOINTS.xs),
  s: `${from(BREAKPOINTS.xs)} and ${upTo(BREAKPOINTS.s)}`,
  m: `${from(BREAKPOINTS.s)} and ${upTo(BREAKPOINTS.m)}`,
  l: from(BREAKPOINTS.m),
  'up-to-s': upTo(BREAKPOINTS.s),
  'up-to-m': upTo(BREAKPOINTS.m),
  'from-s': from(BREAKPOINTS.xs),
  'from-m': from(BREAKPOINTS.s),
} as const;
export type MediaName = keyof typeof MEDIA;

/**
 * A style sheet with its custom media written out: `(--name)` in an `@media` rule becomes the
 * named query (a list, `(--xs), print`, keeps its other parts). A name that is not one of MEDIA's
 * throws, naming the file, so a typo fails the build instead of matching nothing.
 */
export function resolveCustomMedia(css: string, file = 'a style sheet'): string {
  return css.replace(/@media([^{;]*)\{/g, (rule: string, prelude: string) => {
    if (!prelude.includes('(--')) return rule;
    const written = prelude.replace(/\(--([\w-]+)\)/g, (_all, name: string) => {
      if (!Object.prototype.hasOwnProperty.call(MEDIA, name))
        throw new Error(`${file}: unknown custom media (--${name}); known: ${Object.keys(MEDIA).join(', ')}`);
      return MEDIA[name as MediaName];
    });
    return `@media${written}{`;
  });
}
