import { useTranslation } from 'react-i18next';

/** A centred spinner for a screen or a panel that is loading. */
export function Spinner() {
  const { t } = useTranslation();
  return (
    <div className="spinner-screen" role="status" aria-label={t('loading')}>
      <div className="spinner" />
    </div>
  );
}
