import * as CookieConsent from 'vanilla-cookieconsent';
import type { BannerConfig } from '../banner-config.ts';
import { emit } from './ccm-api.ts';
import { type Handover, HANDOVER } from './handover.ts';
import type { PrivacySignal } from './privacy-signals.ts';

/**
 * The record of a visitor's choice, sent to the service's `POST /consent`
 * (src/features/consents/consent.contract.ts) each time the visitor makes or changes one.
 */

export type ConsentRecord = {
  domain: string;
  consentId: string;
  choice: 'all' | 'necessary' | 'custom';
  categories: string[];
  services: string[];
  revision: string;
  locale: string;
  url: string;
  /** The choice was the browser's Do Not Track or Global Privacy Control, not a click. */
  signal?: PrivacySignal;
  /** The theme's `manipulationPrevention` guarded the banner. */
  manipulationPrevention?: true;
  /** The IAB strings of the choice, as the TCF and GPP bundles keep them on the handover. */
  tcString?: string;
  acString?: string;
  gppString?: string;
};

type PrivacyStrings = NonNullable<Handover['privacyStrings']>;

/** What cookieconsent tells about the choice just made (`getUserPreferences()` and the cookie's `consentId`). */
export type Choice = {
  consentId: string | undefined;
  acceptType: string;
  acceptedCategories: string[];
  acceptedServices: Record<string, string[]>;
};

const CHOICES: readonly string[] = ['all', 'necessary', 'custom'];
/** Before the one retry after a network error, a 5xx or a 429. */
export const RETRY_DELAY_MS = 2000;

/** The record of a choice; null when cookieconsent has no consent id or an unknown accept type (nothing to send). */
export function consentRecord(
  config: BannerConfig,
  choice: Choice,
  locale: string,
  url: string,
  signal?: PrivacySignal | null,
  strings: PrivacyStrings = {},
): ConsentRecord | null {
  if (!choice.consentId || !CHOICES.includes(choice.acceptType)) return null;
  const services = Object.keys(choice.acceptedServices).flatMap((category) => choice.acceptedServices[category] ?? []);
  return {
    domain: config.domainId,
    consentId: choice.consentId,
    choice: choice.acceptType as ConsentRecord['choice'],
    categories: [...new Set(choice.acceptedCategories)],
    services: [...new Set(services)],
    revision: config.contentRevision,
    locale,
    url,
    ...(signal ? { signal } : {}),
    ...(config.themeModes?.manipulationPrevention ? { manipulationPrevention: true as const } : {}),
    ...(strings.tcString ? { tcString: strings.tcString } : {}),
    ...(strings.acString ? { acString: strings.acString } : {}),
    ...(strings.gppString ? { gppString: strings.gppString } : {}),
  };
}

const retriable = (status: number) => status === 0 || status === 429 || status >= 500;

/** One attempt: the response's status, 0 for a network error (or no fetch at all). */
async function post(endpoint: string, body: string): Promise<{ status: number; answer: Response | null }> {
  if (typeof window.fetch !== 'function') return { status: 0, answer: null };
  try {
    const answer = await window.fetch(endpoint, {
      method: 'POST',
      // A "simple" request: no CORS preflight.
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      body,
      keepalive: true,
      credentials: 'omit',
      mode: 'cors',
    });
    return { status: answer.status, answer };
  } catch {
    return { status: 0, answer: null };
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/**
 * POSTs the record; retries once after RETRY_DELAY_MS on a network error, a 5xx or a 429. Then
 * `ccm19ConsentRecorded` (`{ consentId, receivedAt }`, the service's answer) or
 * `ccm19ConsentRecordFailed` (`{ status }`, 0: no answer) on window. Never rejects.
 */
export async function sendConsentRecord(endpoint: string, record: ConsentRecord, retryDelayMs = RETRY_DELAY_MS): Promise<void> {
  try {
    const body = JSON.stringify(record);
    let result = await post(endpoint, body);
    if (retriable(result.status)) {
      await wait(retryDelayMs);
      result = await post(endpoint, body);
    }
    const { status, answer } = result;
    if (!answer || !answer.ok) {
      emit('ccm19ConsentRecordFailed', { status });
      return;
    }
    const receipt = (await answer.json().catch(() => null)) as { consentId?: unknown; receivedAt?: unknown } | null;
    emit('ccm19ConsentRecorded', {
      consentId: typeof receipt?.consentId === 'string' ? receipt.consentId : record.consentId,
      receivedAt: typeof receipt?.receivedAt === 'string' ? receipt.receivedAt : null,
    });
  } catch {
    // Never into the page: a record that could not be sent is not the visitor's problem.
  }
}

/**
 * Sends the record of the choice cookieconsent just saved (call it from onFirstConsent and
 * onChange only), in the locale the banner shows. Nothing when the domain has no
 * `consentRecordUrl`; never throws.
 */
export function recordChoice(config: BannerConfig, locale: string, signal?: PrivacySignal | null): void {
  const endpoint = config.consentRecordUrl;
  if (!endpoint) return;
  try {
    const preferences = CookieConsent.getUserPreferences();
    const choice = { ...preferences, consentId: CookieConsent.getCookie('consentId') };
    const record = consentRecord(config, choice, locale, location.href, signal, window[HANDOVER]?.privacyStrings);
    if (record) void sendConsentRecord(endpoint, record);
  } catch {
    // As above.
  }
}
