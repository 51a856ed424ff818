import type { SVGProps } from 'react';

/** Line icons drawn in currentColor, so they follow the theme and need no emoji font. */
export function Icon({ children, size = 18, ...rest }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.7}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden
      {...rest}
    >
      {children}
    </svg>
  );
}

export const PageIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h4" />
  </Icon>
);

export const LockIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V7a4 4 0 0 1 8 0v4" />
  </Icon>
);

export const SearchIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Icon>
);

export const CloudOffIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M3 3l18 18M8.5 8.5A5 5 0 0 0 7 18h10M20.4 15.6A4 4 0 0 0 17 9h-.5A6 6 0 0 0 11 5.1" />
  </Icon>
);

export const PenIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M12 20h9" />
    <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
  </Icon>
);

export const PlusIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const LinkIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M10 13a5 5 0 0 0 7.07 0l3-3a5 5 0 0 0-7.07-7.07l-1.5 1.5" />
    <path d="M14 11a5 5 0 0 0-7.07 0l-3 3a5 5 0 0 0 7.07 7.07l1.5-1.5" />
  </Icon>
);

export const DragHandleIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props} fill="currentColor" stroke="none">
    <circle cx="9" cy="6" r="1.5" />
    <circle cx="15" cy="6" r="1.5" />
    <circle cx="9" cy="12" r="1.5" />
    <circle cx="15" cy="12" r="1.5" />
    <circle cx="9" cy="18" r="1.5" />
    <circle cx="15" cy="18" r="1.5" />
  </Icon>
);

/* Page header, page menu and trash icons. */
export const StarIcon = ({ filled, ...props }: SVGProps<SVGSVGElement> & { size?: number; filled?: boolean }) => (
  <Icon {...props} fill={filled ? 'currentColor' : 'none'}>
    <path d="m12 3 2.7 5.6 6.1.8-4.5 4.2 1.1 6.1L12 16.8l-5.4 2.9 1.1-6.1-4.5-4.2 6.1-.8z" />
  </Icon>
);

export const MoreIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props} fill="currentColor" stroke="none">
    <circle cx="5" cy="12" r="1.7" />
    <circle cx="12" cy="12" r="1.7" />
    <circle cx="19" cy="12" r="1.7" />
  </Icon>
);

export const CopyIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V6a2 2 0 0 1 2-2h8" />
  </Icon>
);

export const TrashIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
  </Icon>
);

export const GlobeIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" />
  </Icon>
);

export const ShieldIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M12 3l7 3v5c0 4.5-3 8.5-7 10-4-1.5-7-5.5-7-10V6l7-3z" />
  </Icon>
);

export const MoveIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

export const PaperclipIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m21.44 11.05-9.19 9.19a6 6 0 0 1-8.49-8.49l8.57-8.57A4 4 0 1 1 18 8.84l-8.59 8.57a2 2 0 0 1-2.83-2.83l8.49-8.48" />
  </Icon>
);

export const ImageIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <circle cx="9" cy="10" r="2" />
    <path d="m21 16-5-5-9 9" />
  </Icon>
);

export const SmileIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M8.5 14.5a4 4 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
  </Icon>
);

export const RestoreIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 12a8 8 0 1 0 2.3-5.7L4 8.6M4 4v4.6h4.6" />
  </Icon>
);

/* Sidebar: tree chevron, collapse/open the sidebar, phone menu, switcher check, close. */
export const ChevronRightIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m9 6 6 6-6 6" />
  </Icon>
);

export const ChevronLeftIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m15 6-6 6 6 6" />
  </Icon>
);

export const CalendarIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <rect x="4" y="5" width="16" height="15" rx="2" />
    <path d="M4 10h16M8 3v4M16 3v4" />
  </Icon>
);

export const ChevronsLeftIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m11 17-5-5 5-5M18 17l-5-5 5-5" />
  </Icon>
);

export const SidebarIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="M9 4v16" />
  </Icon>
);

export const MenuIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Icon>
);

export const CheckIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m5 12 5 5 9-10" />
  </Icon>
);

export const CloseIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Icon>
);

export const SelectorIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m8 9 4-4 4 4M8 15l4 4 4-4" />
  </Icon>
);

export const InboxIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 13.5 6.2 5.7A2 2 0 0 1 8.1 4.3h7.8a2 2 0 0 1 1.9 1.4L20 13.5V18a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2z" />
    <path d="M4 13.5h4.5l1 2h5l1-2H20" />
  </Icon>
);

export const PinIcon = ({ filled, ...props }: SVGProps<SVGSVGElement> & { size?: number; filled?: boolean }) => (
  <Icon {...props}>
    <path d="M9 4h6l-1 5 3 3v2H7v-2l3-3z" fill={filled ? 'currentColor' : 'none'} />
    <path d="M12 14v6" />
  </Icon>
);

export const CheckAllIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="m2.5 12.5 4.5 4.5 9-10M12 16l1 1 9-10" />
  </Icon>
);

export const BellIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </Icon>
);

export const SparklesIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M10 3.5 11.6 8a3 3 0 0 0 1.9 1.9L18 11.5l-4.5 1.6a3 3 0 0 0-1.9 1.9L10 19.5 8.4 15a3 3 0 0 0-1.9-1.9L2 11.5l4.5-1.6A3 3 0 0 0 8.4 8z" />
    <path d="M18.5 2.5v4M16.5 4.5h4M19 16v3M17.5 17.5h3" />
  </Icon>
);

/** A clock with a back arrow: a page's history. */
export const HistoryIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 12a8 8 0 1 0 2.3-5.7L4 8.6M4 4v4.6h4.6M12 8v4l3 2" />
  </Icon>
);

/* The comments panel's. */
export const CommentIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.6A8 8 0 1 1 21 12z" />
  </Icon>
);

export const BackIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M15 18l-6-6 6-6" />
  </Icon>
);

export const SendIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M5 12h14M13 6l6 6-6 6" />
  </Icon>
);

/** A paper plane: the messenger (its bot, the link to it). */
export const PaperPlaneIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M21 3 3 10.5l7 2.5 2.5 7z" />
    <path d="m21 3-11 10" />
  </Icon>
);

export const EditIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4" />
  </Icon>
);

export const FileIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5" />
  </Icon>
);

export const ReplyIcon = (props: SVGProps<SVGSVGElement> & { size?: number }) => (
  <Icon {...props}>
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10a6 6 0 0 1 6 6v4" />
  </Icon>
);
