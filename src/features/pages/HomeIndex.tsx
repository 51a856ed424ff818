import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { PenIcon } from '../../ui/icons';
import { useCreatePage } from './Sidebar';
import { HomeIntents } from './HomeIntents';

/** Home with no page open: a greeting and a way to start writing. */
export function HomeIndex() {
  const { t } = useTranslation();
  const { create, busy } = useCreatePage();
  return (
    <div className="home">
      <HomeIntents />
      <div className="home-card">
        <div className="home-emoji">
          <PenIcon size={32} />
        </div>
        <h1>{t('home.title')}</h1>
        <p>{t('home.text')}</p>
        <Button size="m" disabled={busy} onClick={() => void create('private')}>
          {t('home.create')}
        </Button>
      </div>
    </div>
  );
}
