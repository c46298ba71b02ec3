/** Shown for an unknown address inside the signed-in area. */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../routes.ts';

export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <section className="page page--centered" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t('notFound.title')}</h1>
      <p>{t('notFound.message')}</p>
      <Link className="button button--primary" to={ROUTES.dashboard} replace>
        {t('notFound.back')}
      </Link>
    </section>
  );
}
