import { escapeHtml } from '../../kernel/html.ts';
import { decodeAcString } from './ac-string.ts';
import { decodeGppString } from './gpp-string.ts';
import type { DecodedPrivacyStrings, DecodedUsNat } from './privacy-strings.contract.ts';
import { decodeTcString } from './tc-string.ts';

/**
 * The IAB strings of a consent record in the evidence: decoded (each null when the record has
 * none), and as a section of the printable page.
 */

type RecordStrings = { tcString: string | null; acString: string | null; gppString: string | null };

export function decodedPrivacyStringsOf(record: RecordStrings): DecodedPrivacyStrings {
  return {
    tcString: record.tcString === null ? null : decodeTcString(record.tcString),
    acString: record.acString === null ? null : decodeAcString(record.acString),
    gppString: record.gppString === null ? null : decodeGppString(record.gppString),
  };
}

const fact = (term: string, value: string) => `<dt>${term}</dt><dd>${value}</dd>`;
const code = (value: string) => `<code>${escapeHtml(value)}</code>`;
const ids = (values: number[]) => (values.length ? values.join(', ') : '<em>none</em>');
const UNDECODABLE = '<p class="warning">The string does not decode.</p>';

/** A usnat opt-out (1 opted out, 2 did not, 0 not applicable). */
const OPT_OUT: Record<number, string> = { 0: 'not applicable', 1: '<strong>opted out</strong>', 2: 'did not opt out' };
/** A usnat notice (1 given, 2 not given, 0 not applicable). */
const NOTICE: Record<number, string> = { 0: 'not applicable', 1: 'given', 2: 'not given' };
const word = (words: Record<number, string>, value: number) => words[value] ?? `invalid (${value})`;

function usnatFacts(usnat: DecodedUsNat): string {
  return [
    fact('Sale', `${word(OPT_OUT, usnat.saleOptOut)} (notice ${word(NOTICE, usnat.saleOptOutNotice)})`),
    fact('Sharing', `${word(OPT_OUT, usnat.sharingOptOut)} (notice ${word(NOTICE, usnat.sharingOptOutNotice)})`),
    fact('Targeted advertising', `${word(OPT_OUT, usnat.targetedAdvertisingOptOut)} (notice ${word(NOTICE, usnat.targetedAdvertisingOptOutNotice)})`),
    fact('Sensitive data processing', code(usnat.sensitiveDataProcessing.join(' '))),
    fact('Known child sensitive data consents', code(usnat.knownChildSensitiveDataConsents.join(' '))),
    fact('Personal data consents', String(usnat.personalDataConsents)),
    fact('Global Privacy Control', usnat.gpc === null ? 'not in the string' : usnat.gpc ? 'on' : 'off'),
  ].join('\n');
}

/** The section of the printable page; empty when the record has none of the strings. */
export function privacyStringsHtml(record: RecordStrings, decoded: DecodedPrivacyStrings): string {
  if (record.tcString === null && record.acString === null && record.gppString === null) return '';
  const parts: string[] = [];
  if (record.tcString !== null) {
    const tc = decoded.tcString;
    parts.push(
      `<h3>IAB TCF 2.2: TC string</h3><p>${code(record.tcString)}</p>` +
        (tc
          ? `<dl class="facts">
${fact('CMP', `id ${tc.cmpId}, version ${tc.cmpVersion}`)}
${fact('Vendor list', `version ${tc.vendorListVersion}, TCF policy version ${tc.policyVersion}`)}
${fact('Created, last updated', `${escapeHtml(tc.created.slice(0, 10))}, ${escapeHtml(tc.lastUpdated.slice(0, 10))}`)}
${fact('Language, publisher country', `${code(tc.consentLanguage)}, ${code(tc.publisherCountryCode)}`)}
${fact('Purposes consented', ids(tc.purposeConsents))}
${fact('Purposes by legitimate interest', ids(tc.purposeLegitimateInterests))}
${fact('Special features opted in', ids(tc.specialFeatureOptins))}
${fact('Vendors consented', ids(tc.vendorConsents))}
${fact('Vendors by legitimate interest', ids(tc.vendorLegitimateInterests))}
</dl>`
          : UNDECODABLE),
    );
  }
  if (record.acString !== null) {
    const ac = decoded.acString;
    parts.push(
      `<h3>Google Additional Consent</h3><p>${code(record.acString)}</p>` +
        (ac
          ? `<dl class="facts">${fact('Providers consented', ids(ac.consentedProviders))}${ac.version === 2 ? fact('Providers disclosed', ids(ac.disclosedProviders)) : ''}</dl>`
          : UNDECODABLE),
    );
  }
  if (record.gppString !== null) {
    const gpp = decoded.gppString;
    parts.push(
      `<h3>IAB Global Privacy Platform</h3><p>${code(record.gppString)}</p>` +
        (gpp
          ? `<dl class="facts">${fact('Sections', gpp.sections.length ? gpp.sections.map((section) => `${code(section.name)} (${section.id})`).join(', ') : '<em>none</em>')}
${gpp.usnat ? usnatFacts(gpp.usnat) : ''}</dl>`
          : UNDECODABLE),
    );
  }
  return `<section>
<h2>Privacy framework strings</h2>
<p>The strings the banner wrote with this choice, as the visitor's browser sent them, decoded by the service.</p>
${parts.join('\n')}
</section>`;
}
