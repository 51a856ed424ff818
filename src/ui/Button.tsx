import type { ButtonHTMLAttributes } from 'react';

export type ButtonSize = 'l' | 'm' | 's' | 'xs' | 'xxs';
export type ButtonKind = 'flat' | 'outline' | 'solid';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  size?: ButtonSize;
  kind?: ButtonKind;
  tone?: 'attention';
}

/** The design-system button: sizes l…xxs, kinds flat/outline/solid, optional attention tone. */
export function Button({ size = 'm', kind = 'solid', tone, className, type = 'button', ...rest }: ButtonProps) {
  const classes = ['button', `button-${size}`, `button-${kind}`, tone ? `button-${tone}` : '', className ?? ''];
  return <button type={type} className={classes.filter(Boolean).join(' ')} {...rest} />;
}
