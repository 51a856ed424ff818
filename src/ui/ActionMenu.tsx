import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Popover } from './Popover';

/** A menu's enabled items (menuitem, menuitemcheckbox, menuitemradio), whatever they look like. */
const MENU_ITEMS = '[role^="menuitem"]:not(:disabled)';

/** ↑/↓ in a menu move the focus between its enabled items, round. */
export function moveMenuFocus(event: KeyboardEvent, menu: HTMLElement | null) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  event.preventDefault();
  const items = [...(menu?.querySelectorAll<HTMLElement>(MENU_ITEMS) ?? [])];
  const index = items.indexOf(document.activeElement as HTMLElement);
  const next = items[(index + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length];
  next?.focus();
}

/**
 * A button that opens a menu of actions under it (the «⋯» of a page or a notification, the «⌄»
 * of page types, a database's «+» and grouping): `aria-haspopup`/`aria-expanded` on the button,
 * the focus on the first enabled item when it opens, ↑/↓ round the items, Escape or a click
 * outside closes it (the Popover), and `close` for an item's action.
 */
export function ActionMenu({
  label,
  menuLabel = label,
  trigger,
  iconOnly = true,
  buttonClassName = 'button button-xxs button-flat',
  menuClassName,
  align = 'end',
  disabled,
  onOpenChange,
  children,
}: {
  /** The button's name (and tooltip) when `iconOnly`; the menu's too unless `menuLabel`. */
  label: string;
  menuLabel?: string;
  /** What the button shows. */
  trigger: ReactNode;
  /** The button is named by `label`, not by what it shows. */
  iconOnly?: boolean;
  buttonClassName?: string;
  /** Added to the menu's `menu` class. */
  menuClassName?: string;
  align?: 'start' | 'end';
  disabled?: boolean;
  onOpenChange?(open: boolean): void;
  /** The items; `close` shuts the menu. */
  children(close: () => void): ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLButtonElement | null>(null);
  const [open, setOpenState] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const changed = useRef(onOpenChange);
  changed.current = onOpenChange;
  const setOpen = (next: boolean) => {
    setOpenState(next);
    changed.current?.(next);
  };
  const close = () => setOpen(false);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>(MENU_ITEMS)?.focus();
  }, [open]);

  return (
    <>
      <button
        ref={setAnchor}
        type="button"
        className={buttonClassName}
        aria-label={iconOnly ? label : undefined}
        title={iconOnly ? label : undefined}
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen(!open)}
      >
        {trigger}
      </button>
      {open && (
        <Popover anchor={anchor} onClose={close} label={menuLabel} align={align} className={['menu', menuClassName].filter(Boolean).join(' ')} role="menu">
          <div ref={menu} onKeyDown={(event) => moveMenuFocus(event, menu.current)}>
            {children(close)}
          </div>
        </Popover>
      )}
    </>
  );
}

/** One action of a menu: an icon and its words. */
export function MenuItem({
  icon,
  children,
  onClick,
  disabled,
  danger,
  role = 'menuitem',
  checked,
}: {
  icon?: ReactNode;
  children: ReactNode;
  onClick(): void;
  disabled?: boolean;
  danger?: boolean;
  role?: 'menuitem' | 'menuitemcheckbox' | 'menuitemradio';
  checked?: boolean;
}) {
  return (
    <button
      type="button"
      role={role}
      aria-checked={role === 'menuitem' ? undefined : checked}
      className={danger ? 'menu-item is-danger' : 'menu-item'}
      disabled={disabled}
      onClick={onClick}
    >
      {icon !== undefined && <span className="menu-item-icon">{icon}</span>}
      <span>{children}</span>
    </button>
  );
}
