import { useTranslation } from 'react-i18next';
import type { AppLinks } from '../app/appConfig';
import './footerLinks.css';

const ORDER = ['privacy', 'terms', 'docs', 'templates'] as const;

/** The installation's privacy policy, terms, documentation and templates links (those that are set), each in a new tab. */
export function FooterLinks({ links }: { links: AppLinks }) {
  const { t } = useTranslation();
  const shown = ORDER.filter((key) => links[key]);
  if (shown.length === 0) return null;
  return (
    <nav className="footer-links" aria-label={t('footer.label')}>
      {shown.map((key) => (
        <a key={key} href={links[key] as string} target="_blank" rel="noopener noreferrer">
          {t(`footer.${key}`)}
        </a>
      ))}
    </nav>
  );
}
