/** Applies the organisation's theme colours as CSS variables (and the browser's theme colour). */
import { useEffect } from 'react';
import { APP_ORG_SHORT_NAME } from '@kisht/domain/constants';
import { brandingFor, type Branding } from '@kisht/domain/white-label';
import type { OrgAppConfig } from '@kisht/server/contract/config';

/** The organisation's looks; the app's own branding until the config has loaded. */
export function brandingOf(config: OrgAppConfig | undefined): Branding {
  if (!config) return brandingFor(APP_ORG_SHORT_NAME);
  return { mainLayout: config.main_layout, antihackingLayout: config.antihacking_layout, theme: config.theme };
}

export function useOrgTheme(config: OrgAppConfig | undefined): void {
  const { theme } = brandingOf(config);
  useEffect(() => {
    const root = document.documentElement.style;
    root.setProperty('--color-primary', theme.primary);
    root.setProperty('--color-on-primary', theme.onPrimary);
    root.setProperty('--color-accent', theme.accent);
    root.setProperty('--color-surface', theme.surface);
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.primary);
  }, [theme.primary, theme.onPrimary, theme.accent, theme.surface]);
}
