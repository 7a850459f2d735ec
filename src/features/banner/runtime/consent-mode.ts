import type { BannerConfig, GoogleConsentType } from '../banner-config.ts';

type ConsentState = 'granted' | 'denied';
type ConsentSignals = Record<GoogleConsentType | 'ad_user_data' | 'ad_personalization', ConsentState>;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

const TYPES: GoogleConsentType[] = ['ad_storage', 'analytics_storage', 'functionality_storage', 'personalization_storage', 'security_storage'];

/** gtag as Google's snippet defines it: it must push the `arguments` object itself, not an array. */
function gtag(...args: unknown[]): void {
  window.dataLayer = window.dataLayer || [];
  if (typeof window.gtag !== 'function') {
    window.gtag = function () {
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
  }
  window.gtag(...args);
}

/** Every signal denied, before any tag runs. */
export function setConsentDefaults(): void {
  gtag('consent', 'default', { ...signals([]), wait_for_update: 500 });
}

/** The signals of the accepted services granted, every other one denied; an embedding kept off this page grants nothing here. */
export function updateConsent(config: BannerConfig, acceptedIds: Set<string>): void {
  const granted = config.categories.flatMap((category) =>
    category.services.filter((service) => acceptedIds.has(service.id) && !service.offPage).flatMap((service) => service.googleConsentMode),
  );
  gtag('consent', 'update', signals(granted));
}

function signals(granted: GoogleConsentType[]): ConsentSignals {
  const state = (type: GoogleConsentType): ConsentState => (granted.includes(type) ? 'granted' : 'denied');
  const result = Object.fromEntries(TYPES.map((type) => [type, state(type)])) as Record<GoogleConsentType, ConsentState>;
  return { ...result, ad_user_data: result.ad_storage, ad_personalization: result.ad_storage };
}
