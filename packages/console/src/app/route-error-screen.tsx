/** The route error boundary: "Unexpected Application Error!" with the status or the message. */
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';

const STATUS_KEYS: Record<number, string> = {
  400: 'routeError.badRequest',
  403: 'routeError.forbidden',
  404: 'routeError.noRoute',
  405: 'routeError.noAction',
};

export function RouteErrorScreen() {
  const { t } = useTranslation();
  const error = useRouteError();
  let detail: string;
  if (isRouteErrorResponse(error)) {
    const key = STATUS_KEYS[error.status];
    detail = `${error.status} ${key ? t(key) : error.statusText}`;
  } else if (error instanceof Error) {
    detail = error.message;
  } else {
    detail = String(error);
  }
  useEffect(() => {
    // Make sure no boot splash hides this screen.
    document.getElementById('boot-splash')?.remove();
  }, []);
  return (
    <main className="page page--centered app-column" role="alert">
      {/* The default shows even when the dictionary itself could not load. */}
      <h1>{t('routeError.title', 'Unexpected Application Error!')}</h1>
      <p className="error-detail">{detail}</p>
      <div className="auth-row">
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          {t('pwa.reload')}
        </button>
        <a className="button button--secondary" href="/">
          {t('routeError.home')}
        </a>
      </div>
    </main>
  );
}
