import './switch.css';

export interface SwitchProps {
  checked: boolean;
  onChange(checked: boolean): void;
  disabled?: boolean;
  id?: string;
  /** Its name when no `<label htmlFor>` gives one. */
  'aria-label'?: string;
}

/** An on/off switch (`role="switch"`): a notification kind, a page's public link. */
export function Switch({ checked, onChange, disabled, id, 'aria-label': label }: SwitchProps) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      className="switch"
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span className="switch-knob" />
    </button>
  );
}
