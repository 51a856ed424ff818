import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { FormFill } from './FormFill';
import './form.css';

/**
 * /form/:databaseId/:viewId — a form to fill in, outside the workspace's frame (no sidebar), signed in or not
 * (src/app/App.tsx): the app's name over the form.
 */
export function FormScreen() {
  const { t } = useTranslation();
  const { databaseId = '', viewId = '' } = useParams();
  return (
    <div className="db-form-screen">
      <header className="db-form-topbar">
        <Link to="/" className="db-form-brand">
          {t('appName')}
        </Link>
      </header>
      <main className="db-form-page">
        <FormFill key={`${databaseId}/${viewId}`} databaseId={databaseId} viewId={viewId} />
      </main>
    </div>
  );
}

export default FormScreen;
