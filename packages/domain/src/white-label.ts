/** White-labelling: the main layout, theme and anti-hacking layout follow the organisation's name. */

export type MainLayout = 'tabs' | 'drawer';
export type AntihackingLayout = 'standard' | 'compact';
export interface Theme {
  primary: string;
  onPrimary: string;
  accent: string;
  surface: string;
}
export interface Branding {
  mainLayout: MainLayout;
  antihackingLayout: AntihackingLayout;
  theme: Theme;
}

const DEFAULT_BRANDING: Branding = {
  mainLayout: 'tabs',
  antihackingLayout: 'standard',
  theme: { primary: '#0b5cad', onPrimary: '#ffffff', accent: '#f59e0b', surface: '#f5f7fb' },
};

/** Known organisation names (matched case- and punctuation-insensitively) and their looks. */
const BRANDING_BY_NAME: Record<string, Partial<Branding>> = {
  onetouch: {
    mainLayout: 'tabs',
    antihackingLayout: 'standard',
    theme: { primary: '#0b5cad', onPrimary: '#ffffff', accent: '#f59e0b', surface: '#f5f7fb' },
  },
  zenlock: {
    mainLayout: 'drawer',
    antihackingLayout: 'compact',
    theme: { primary: '#6d28d9', onPrimary: '#ffffff', accent: '#10b981', surface: '#f7f5fc' },
  },
};

export function normaliseOrgName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function brandingFor(orgName: string | null | undefined): Branding {
  const known = orgName ? BRANDING_BY_NAME[normaliseOrgName(orgName)] : undefined;
  return { ...DEFAULT_BRANDING, ...known, theme: { ...DEFAULT_BRANDING.theme, ...known?.theme } };
}
