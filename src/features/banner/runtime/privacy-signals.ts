import * as CookieConsent from 'vanilla-cookieconsent';

/**
 * Do Not Track and Global Privacy Control (the theme's `complyWithDoNotTrack`): a browser that
 * sends either gets "necessary only" without a banner. GPC is read from
 * `navigator.globalPrivacyControl` and from the `Sec-GPC: 1` header of app.js's request, which
 * the service marks in the app.js it answers (src/features/banner/sec-gpc.ts).
 */

export type PrivacySignal = 'gpc' | 'dnt';

type SignalNavigator = Navigator & { globalPrivacyControl?: unknown; msDoNotTrack?: unknown };

/** The signal the visitor's browser sends, GPC first; null for none. */
export function privacySignal(): PrivacySignal | null {
  const nav = navigator as SignalNavigator;
  if (nav.globalPrivacyControl === true || (window as { __ccmSecGpc?: unknown }).__ccmSecGpc === 1) return 'gpc';
  // Old Firefox said "yes"; old Internet Explorer and Safari put it elsewhere.
  const dnt = nav.doNotTrack ?? (window as { doNotTrack?: unknown }).doNotTrack ?? nav.msDoNotTrack;
  return dnt === '1' || dnt === 'yes' ? 'dnt' : null;
}

/**
 * Notes in the stored consent (cookieconsent's `data`) whether the choice just saved came from
 * a signal; a later choice of the visitor's own drops the note.
 */
export function noteSignal(signal: PrivacySignal | null): void {
  const data: unknown = CookieConsent.getCookie('data');
  const kept = data && typeof data === 'object' ? { ...(data as Record<string, unknown>) } : {};
  if (signal) kept.signal = signal;
  else if (!('signal' in kept)) return;
  else delete kept.signal;
  CookieConsent.setCookieData({ value: kept, mode: 'overwrite' });
}
