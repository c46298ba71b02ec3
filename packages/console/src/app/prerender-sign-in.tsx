/**
 * The sign-in screen as HTML, rendered at build time (scripts/prerender.mjs) from the same components the app
 * renders, one page per language. The server sends it for /login, so a slow phone paints the screen with the
 * HTML instead of after the scripts have loaded and React has rendered; the app's first render then replaces it.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { createInstance } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { FALLBACK_LANGUAGE, type Language } from '@kisht/domain/constants';
import { ROUTES } from '../shared/routes.ts';
import { LoginScreen } from '../features/auth/components/login-screen.tsx';
import { configApi } from '../shared/config/config-api.ts';
import { brandingOf } from '../shared/config/use-org-theme.ts';
import { createAppStore } from './store.ts';

type Dictionary = Record<string, unknown>;

/**
 * Where the organisation's name goes: the server puts the name of the organisation the console is built for in
 * its place when it sends the page, so the page shows what the app will show once the organisation's config answers.
 */
export const ORG_NAME_SLOT = '%KISHT_ORG_NAME%';

/** The markup that goes inside #root: the root layout's column around the sign-in screen, as the app draws it. */
export function renderSignIn(language: Language, dictionary: Dictionary, fallback: Dictionary): string {
  const i18n = createInstance();
  void i18n.init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: { [language]: { translation: dictionary }, [FALLBACK_LANGUAGE]: { translation: fallback } },
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    showSupportNotice: false,
  });
  const router = createMemoryRouter([{ path: ROUTES.login, Component: LoginScreen }], { initialEntries: [ROUTES.login] });
  const store = createAppStore();
  const branding = brandingOf(undefined);
  store.dispatch(configApi.util.upsertQueryEntries([{
    endpointName: 'getOrgAppConfig',
    arg: undefined,
    value: {
      org_id: 0, name: ORG_NAME_SLOT, short_name: ORG_NAME_SLOT, company_name: ORG_NAME_SLOT, parent_company_name: '', ai_assistant_name: '',
      main_layout: branding.mainLayout, antihacking_layout: branding.antihackingLayout, theme: branding.theme,
      support: { phone: null, email: null, whatsapp: null, hours: null },
    },
  }]));
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <Provider store={store}>
        <div className="app-column" data-prerendered={language} inert>
          <RouterProvider router={router} />
        </div>
      </Provider>
    </I18nextProvider>,
  );
}
