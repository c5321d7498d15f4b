/**
 * What the server says about itself (GET /loginoptions): the ways to sign in, and how the portal
 * looks and names itself (PORTAL_NAME, PORTAL_LOGO, PORTAL_ACCENT_COLOR, OLD_DOCS_URL;
 * docs/configuration.md). Loaded once for every screen. The page title follows the name; the
 * accent colour is set as CSS custom properties from script (CSSOM, which the CSP's
 * `style-src 'self'` allows), never as an inline style attribute.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { LoginOptions } from '@tools-portal/core/entities';
import { DEFAULT_PORTAL_NAME } from '@tools-portal/core/passwords';
import { api, logFailure } from './api';
import { accentOf } from './logic/accent';

export interface Branding extends LoginOptions {
  /** Whether the server has answered (until then: the defaults, no Google, no reset). */
  loaded: boolean;
}

const DEFAULTS: Branding = {
  google: false,
  passwordReset: false,
  defaultLanguage: 'en',
  portalName: DEFAULT_PORTAL_NAME,
  logo: null,
  accentColor: null,
  oldDocsUrl: null,
  loaded: false,
};

const BrandingContext = createContext<Branding>(DEFAULTS);

export function BrandingProvider({ children }: { children: ReactNode }) {
  const [branding, setBranding] = useState<Branding>(DEFAULTS);

  useEffect(() => {
    let current = true;
    api.auth
      .options()
      .then((options) => current && setBranding({ ...options, loaded: true }))
      .catch((error: unknown) => {
        logFailure('load login options', error);
        if (current) setBranding({ ...DEFAULTS, loaded: true });
      });
    return () => {
      current = false;
    };
  }, []);

  useEffect(() => {
    document.title = branding.portalName;
  }, [branding.portalName]);

  useEffect(() => applyAccent(branding.accentColor), [branding.accentColor]);

  return <BrandingContext.Provider value={branding}>{children}</BrandingContext.Provider>;
}

export function useBranding(): Branding {
  return useContext(BrandingContext);
}

/** Sets (or, with null, removes) the accent's custom properties on the document (styles.css reads them). */
function applyAccent(colour: string | null): () => void {
  const root = document.documentElement;
  const accent = colour ? accentOf(colour) : null;
  if (!accent) return () => undefined;
  const properties: Record<string, string> = {
    '--portal-accent': accent.colour,
    '--portal-accent-rgb': accent.rgb,
    '--portal-accent-text': accent.text,
    '--portal-accent-ink': accent.ink,
    '--portal-accent-ink-rgb': accent.inkRgb,
  };
  for (const [name, value] of Object.entries(properties)) root.style.setProperty(name, value);
  root.dataset.accent = '';
  return () => {
    for (const name of Object.keys(properties)) root.style.removeProperty(name);
    delete root.dataset.accent;
  };
}

/** The portal's logo (when it has one) and name: the navigation's brand and the sign-in screens' heading. */
export function PortalBrand({ logoSize = 32 }: { logoSize?: number }) {
  const { portalName, logo } = useBranding();
  return (
    <span className="d-inline-flex align-items-center gap-2">
      {logo && <img src={logo} alt="" height={logoSize} className="portal-logo" />}
      <span>{portalName}</span>
    </span>
  );
}
