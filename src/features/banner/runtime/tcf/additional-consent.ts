/**
 * Google's Additional Consent string, format v2: `2~<consented ATP ids>~dv.<disclosed, not consented ids>`,
 * ids ascending and dot-separated (https://support.google.com/admanager/answer/9681920).
 */
export function additionalConsentString(providers: readonly number[], consented: ReadonlySet<number>): string {
  const sorted = [...new Set(providers)].sort((a, b) => a - b);
  const yes = sorted.filter((id) => consented.has(id));
  const no = sorted.filter((id) => !consented.has(id));
  return `2~${yes.join('.')}~dv.${no.join('.')}`;
}
