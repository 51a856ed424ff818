import type { SVGProps } from 'react';

/** Line icons drawn in currentColor, so they follow the theme and need no emoji font. */
function Icon({ children, size = 18, ...rest }: SVGProps<SVGSVGElement> & { size?: number }) {
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
