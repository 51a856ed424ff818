import type { SVGProps } from 'react';
import type { PageType } from '../../schema/constants';
import { Icon, PageIcon } from './icons';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/* The page types' line icons (the sidebar, the «+» menu, a folder's cards), and the CSV ones. */
export const FolderIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
  </Icon>
);

export const TableIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M3 10h18M3 15h18M9 10v10" />
  </Icon>
);

export const FrameIcon = (props: IconProps) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M3 8h18M9.5 12.5 7.5 14.5l2 2M14.5 12.5l2 2-2 2" />
  </Icon>
);

export const UploadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 15V4M7.5 8.5 12 4l4.5 4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
  </Icon>
);

export const DownloadIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 4v11M7.5 10.5 12 15l4.5-4.5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
  </Icon>
);

export const ChevronDownIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="m6 9 6 6 6-6" />
  </Icon>
);

/** The line icon of a page of this type (a page with an emoji icon shows the emoji instead). */
export function PageTypeIcon({ type, ...props }: IconProps & { type: PageType }) {
  switch (type) {
    case 'Space':
      return <FolderIcon {...props} />;
    case 'Database':
    case 'Widget':
    case 'WidgetView':
      return <TableIcon {...props} />;
    case 'Iframe':
      return <FrameIcon {...props} />;
    default:
      return <PageIcon {...props} />;
  }
}
