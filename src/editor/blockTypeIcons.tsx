import type { ReactNode } from 'react';
import { FileIcon, Icon, ImageIcon, PageIcon, SparklesIcon } from '../ui/icons';
import { BLOCK_ICONS } from './blocks';

/*
 * The slash menu's pictures of block types (issue 36 §2): line icons in currentColor like the
 * rest of the app (src/ui/icons.tsx), one per type the menu offers; the headings and plain text
 * show their letters. A block type's folder may give its own (`blockIcons` in its View.tsx).
 */

const Letters = ({ text, size = 15 }: { text: string; size?: number }) => (
  <Icon>
    <text x="12" y="17.2" textAnchor="middle" fontSize={size} fontWeight={600} fill="currentColor" stroke="none" fontFamily="inherit">
      {text}
    </text>
  </Icon>
);

const ICONS: Record<string, () => ReactNode> = {
  text: () => <Letters text="Aa" size={15} />,
  heading1: () => <Letters text="H1" />,
  heading2: () => <Letters text="H2" />,
  heading3: () => <Letters text="H3" />,
  bulletList: () => (
    <Icon>
      <path d="M9 6h11M9 12h11M9 18h11" />
      <circle cx="4.5" cy="6" r="1" fill="currentColor" />
      <circle cx="4.5" cy="12" r="1" fill="currentColor" />
      <circle cx="4.5" cy="18" r="1" fill="currentColor" />
    </Icon>
  ),
  orderedList: () => (
    <Icon>
      <path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1v5M3.5 14.5a1.5 1.5 0 1 1 2.5 1.2L3.5 19H6.5" />
    </Icon>
  ),
  checkbox: () => (
    <Icon>
      <rect x="4" y="4" width="16" height="16" rx="3" />
      <path d="m8 12 3 3 5-6" />
    </Icon>
  ),
  quote: () => (
    <Icon>
      <path d="M5 5v14M10 8h9M10 12h9M10 16h6" />
    </Icon>
  ),
  callout: () => (
    <Icon>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M7 10h.01M10 10h7M7 14h10" />
    </Icon>
  ),
  divider: () => (
    <Icon>
      <path d="M3 12h18" />
      <path d="M7 7h10M7 17h10" opacity={0.35} />
    </Icon>
  ),
  table: () => (
    <Icon>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3 10h18M3 15h18M10 5v14" />
    </Icon>
  ),
  document: () => <PageIcon />,
  image: () => <ImageIcon />,
  file: () => <FileIcon />,
  embed: () => (
    <Icon>
      <path d="m8 8-4 4 4 4M16 8l4 4-4 4M13.5 5l-3 14" />
    </Icon>
  ),
  database: () => (
    <Icon>
      <ellipse cx="12" cy="6" rx="7" ry="3" />
      <path d="M5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12c0 1.7 3.1 3 7 3s7-1.3 7-3" />
    </Icon>
  ),
  databaseTable: () => (
    <Icon>
      <rect x="3" y="4" width="18" height="16" rx="2" />
      <path d="M3 9h18M9 9v11M15 9v11" />
    </Icon>
  ),
  code: () => (
    <Icon>
      <path d="m9 8-4 4 4 4M15 8l4 4-4 4" />
    </Icon>
  ),
  latex: () => <Letters text="∑" size={19} />,
};

/** The picture of a slash menu item: its block type's (or the database's second name's), the AI's sparkles. */
export function slashItemIcon(key: string): ReactNode {
  if (key === 'generate' || key === 'continue') return <SparklesIcon />;
  return (ICONS[key] ?? BLOCK_ICONS[key] ?? ICONS.text)();
}
