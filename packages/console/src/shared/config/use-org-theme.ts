/**
 * Applies the organisation's theme colours as CSS variables (and the browser's theme colour): they override the
 * defaults of --color-primary, --color-on-primary, --color-accent and --color-surface in shared/ui/styles/tokens.css.
 */
import { useEffect } from 'react';
import { APP_ORG_SHORT_NAME } from '@kisht/domain/constants';
import { brandingFor, type Branding, type Theme } from '@kisht/domain/white-label';
import type { OrgAppConfig } from '@kisht/contract/config';
import { readConsoleKey, writeConsoleKey } from '../storage.ts';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The theme remembered from the last visit, when it is a well-formed one. */
export function rememberedTheme(text: string | null): Theme | null {
  try {
    const theme = JSON.parse(text ?? 'null') as Partial<Theme> | null;
    if (!theme || ![theme.primary, theme.onPrimary, theme.accent, theme.surface].every((c) => typeof c === 'string' && HEX.test(c))) return null;
    return theme as Theme;
  } catch {
    return null;
  }
}

/** The organisation's looks; the app's own branding until the config has loaded. */
export function brandingOf(config: OrgAppConfig | undefined): Branding {
  if (!config) return brandingFor(APP_ORG_SHORT_NAME);
  return { mainLayout: config.main_layout, antihackingLayout: config.antihacking_layout, theme: config.theme };
}

/**
 * The first screen does not wait for the organisation's config: it paints in the theme remembered from the
 * last visit (or the app's own), and the config's theme replaces it when it answers.
 */
export function useOrgTheme(config: OrgAppConfig | undefined): void {
  const theme = config ? brandingOf(config).theme : (rememberedTheme(readConsoleKey('orgTheme')) ?? brandingOf(undefined).theme);
  useEffect(() => {
    if (config) writeConsoleKey('orgTheme', JSON.stringify(theme));
    const root = document.documentElement.style;
    root.setProperty('--color-primary', theme.primary);
    root.setProperty('--color-on-primary', theme.onPrimary);
    root.setProperty('--color-accent', theme.accent);
    root.setProperty('--color-surface', theme.surface);
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', theme.primary);
  }, [Boolean(config), theme.primary, theme.onPrimary, theme.accent, theme.surface]);
}
