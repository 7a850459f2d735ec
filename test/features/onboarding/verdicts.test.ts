import { describe, expect, it } from 'vitest';
import { builtinCatalog } from '../../../src/features/catalog/catalog.ts';
import { thirdPartiesOf } from '../../../src/features/onboarding/third-parties.ts';
import { scanVerdicts, shortAddress } from '../../../src/features/onboarding/verdicts.ts';
import type { ScanFindings, ScannedCookie, ScanPhase, ThirdPartyRequest } from '../../../src/scanner/scan.ts';
import { scanFindingsOf } from '../../support/scan-findings.ts';

/** The verdict list of a scan answer, on findings made up here with the built-in catalog. */

const SITE = 'https://www.moebel.example/';
const FBEVENTS = 'https://connect.facebook.net/en_US/fbevents.js?v=2.9';

function cookie(name: string, domain: string, phase: ScanPhase = 'before-consent', setBy: string | null = null): ScannedCookie {
  const party = domain.replace(/^\./, '').endsWith('moebel.example') ? 'first' : 'third';
  return { name, domain, path: '/', expires: null, httpOnly: false, secure: true, sameSite: null, party, phase, setBy };
}

function request(url: string, kind: ThirdPartyRequest['kind'], phase: ScanPhase = 'before-consent'): ThirdPartyRequest {
  return { url, host: new URL(url).hostname, kind, page: SITE, initiator: null, phase };
}

const verdictsOf = (found: Partial<ScanFindings>) => {
  const findings = scanFindingsOf(SITE, found);
  const catalog = builtinCatalog();
  return scanVerdicts(catalog, findings, thirdPartiesOf(catalog, findings));
};

describe('the verdicts of a scan', () => {
  it('name a tracking cookie with what set it, the phase and whose it is', () => {
    expect(verdictsOf({ cookies: [cookie('_fbp', '.moebel.example', 'before-consent', FBEVENTS)] })).toEqual([
      { phase: 'before-consent', subject: 'cookie', text: 'cookie `_fbp` set by connect.facebook.net/en_US/fbevents.js before consent (Meta Pixel)' },
    ]);
  });

  it('leave out what is technically necessary and first-party names nobody knows, and judge unknown third-party cookies', () => {
    const texts = verdictsOf({
      cookies: [cookie('__cf_bm', '.moebel.example'), cookie('PHPSESSID', 'www.moebel.example'), cookie('uid', '.adnetz.example')],
    }).map((verdict) => verdict.text);
    expect(texts).toEqual(['cookie `uid` set on adnetz.example before consent (unrecognised third party)']);
  });

  it('list tracking beacons once per host and phase, and what appeared after accepting the site’s banner after the rest', () => {
    const verdicts = verdictsOf({
      existingBanner: { cmp: 'Complianz banner', accepted: true },
      cookies: [cookie('_ga', '.moebel.example', 'after-accept', 'https://www.googletagmanager.com/gtag/js?id=G-1')],
      localStorage: [{ name: 'hjActiveViewportIds', origin: 'https://www.moebel.example', phase: 'before-consent', setBy: null }],
      requests: [
        request('https://region1.google-analytics.com/g/collect?v=2&tid=G-1&cid=1', 'beacon', 'after-accept'),
        request('https://region1.google-analytics.com/g/collect?v=2&tid=G-1&cid=1&en=scroll', 'beacon', 'after-accept'),
      ],
    });
    expect(verdicts.map((verdict) => verdict.phase)).toEqual(['before-consent', 'after-accept', 'after-accept']);
    expect(verdicts[0]).toMatchObject({ subject: 'localStorage', text: 'localStorage key `hjActiveViewportIds` set on https://www.moebel.example before consent (Hotjar)' });
    expect(verdicts.slice(1).map((verdict) => verdict.text)).toEqual([
      "cookie `_ga` set by www.googletagmanager.com/gtag/js only after the site's own banner (Complianz banner) was accepted (Google Analytics 4)",
      "tracking beacon sent to region1.google-analytics.com/g/collect only after the site's own banner (Complianz banner) was accepted (Google Analytics 4)",
    ]);
  });

  it('show addresses as host and path', () => {
    expect(shortAddress('https://www.facebook.com/tr/?id=1&ev=PageView')).toBe('www.facebook.com/tr/');
    expect(shortAddress('http://www.moebel.example/')).toBe('www.moebel.example');
  });
});
