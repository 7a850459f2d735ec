import { describe, expect, it } from 'vitest';
import { builtinPreset } from '../../support/presets.ts';
import { builtinCatalog } from '../../../src/features/catalog/catalog.ts';
import { recogniseServices } from '../../../src/features/onboarding/recognise.ts';
import type { ScanFindings, ScannedCookie } from '../../../src/scanner/scan.ts';
import { scanFindingsOf } from '../../support/scan-findings.ts';

/**
 * Services are suggested from their own evidence (recogniseServices), on findings made up here: a
 * cookie that a service found on the site is known to set (the catalog's `alsoSetBy`) is that
 * service's and suggests no other; a name on a third party's domain that is not the service's says
 * nothing; each suggestion says why (`why`).
 */

const SITE = 'https://www.joinery.example/';

function findings(found: Partial<ScanFindings>): ScanFindings {
  return scanFindingsOf(SITE, found);
}

function cookie(name: string, domain = 'www.joinery.example'): ScannedCookie {
  const party = domain.replace(/^\./, '').endsWith('joinery.example') ? 'first' : 'third';
  return { name, domain, path: '/', expires: null, httpOnly: false, secure: true, sameSite: null, party, phase: 'before-consent', setBy: null };
}

const preset = builtinPreset;
const GA4 = preset('Google Analytics 4');
const GTM = preset('Google Tag Manager');
const YOUTUBE = preset('YouTube');
const GOOGLE_ADS = preset('Google Ads Conversion Tracking & Remarketing');
const FLOODLIGHT = preset('Google Marketing Platform (Campaign Manager 360 / Floodlight)');
const HOTJAR = preset('Hotjar');

const GTM_JS = 'https://www.googletagmanager.com/gtm.js?id=GTM-JOINERY';
const GTAG = 'https://www.googletagmanager.com/gtag/js?id=G-JOINERY1';
const CONVERSION_JS = 'https://www.googleadservices.com/pagead/conversion.js';
const EMBED = 'https://www.youtube.com/embed/joinery-tour';

const recognise = (found: Partial<ScanFindings>) => recogniseServices(builtinCatalog(), findings(found));
const ids = (found: Partial<ScanFindings>) => recognise(found).map((service) => service.id);
const whyOf = (found: Partial<ScanFindings>, id: number) => recognise(found).find((service) => service.id === id)?.why;

describe("a cookie another service found on the site sets is that service's", () => {
  it("gives the conversion linker's `_gcl_au` to Google Tag Manager, found by gtm.js, and suggests no Google Ads", () => {
    const found = { scripts: [GTM_JS], cookies: [cookie('_gcl_au')] };
    expect(ids(found)).toEqual([GTM.id]);
    expect(whyOf(found, GTM.id)).toEqual([
      { kind: 'cookie', name: '_gcl_au', domain: 'www.joinery.example' },
      { kind: 'script', url: GTM_JS },
    ]);
  });

  it('gives `_gcl_au` to Google Analytics 4 when gtag.js is the tag found', () => {
    const found = { scripts: [GTAG], cookies: [cookie('_ga'), cookie('_gcl_au')] };
    expect(ids(found)).toEqual([GA4.id]);
    expect(whyOf(found, GA4.id)).toContainEqual({ kind: 'cookie', name: '_gcl_au', domain: 'www.joinery.example' });
  });

  it("gives `IDE` on doubleclick.net to the YouTube embed found, and suggests no Floodlight", () => {
    const found = { iframes: [EMBED], cookies: [cookie('YSC', '.youtube.com'), cookie('IDE', '.doubleclick.net')] };
    expect(ids(found)).toEqual([YOUTUBE.id]);
    expect(whyOf(found, YOUTUBE.id)).toEqual([
      { kind: 'cookie', name: 'YSC', domain: '.youtube.com' },
      { kind: 'cookie', name: 'IDE', domain: '.doubleclick.net' },
      { kind: 'frame', url: EMBED },
    ]);
  });

  it('still suggests Google Ads where its own conversion script is there: `_gcl_au` goes to it, not to GTM', () => {
    const found = { scripts: [GTM_JS, CONVERSION_JS], cookies: [cookie('_gcl_au')] };
    expect(ids(found)).toEqual([GTM.id, GOOGLE_ADS.id]);
    expect(whyOf(found, GOOGLE_ADS.id)).toEqual([
      { kind: 'cookie', name: '_gcl_au', domain: 'www.joinery.example' },
      { kind: 'script', url: CONVERSION_JS },
    ]);
    expect(whyOf(found, GTM.id)).toEqual([{ kind: 'script', url: GTM_JS }]);
  });

  it('suggests the lister by a cookie when no service found sets it: `_gcl_au` alone, `IDE` on doubleclick.net alone', () => {
    expect(ids({ cookies: [cookie('_gcl_au')] })).toEqual([GOOGLE_ADS.id]);
    expect(ids({ cookies: [cookie('IDE', '.doubleclick.net')] })).toEqual([FLOODLIGHT.id]);
  });
});

describe("a cookie is evidence on the site's own domain or on the service's", () => {
  it("recognises Hotjar by its first-party cookie, not by the same name on a third party's domain that is not Hotjar's", () => {
    expect(ids({ cookies: [cookie('_hjSessionUser_4711')] })).toEqual([HOTJAR.id]);
    expect(ids({ cookies: [cookie('_hjSessionUser_4711', '.widgets.unrelated.example')] })).toEqual([]);
    expect(ids({ cookies: [cookie('IDE', '.ads.unrelated.example')] })).toEqual([]);
  });

  it('says why by storage key and origin, and by stylesheet and font', () => {
    const key = { name: 'yt-remote-device-id', origin: 'https://www.youtube.com', phase: 'before-consent' as const, setBy: null };
    const css = 'https://fonts.googleapis.com/css2?family=Lora';
    const font = 'https://fonts.gstatic.com/s/lora/v32/lora.woff2';
    const found = { iframes: [EMBED], localStorage: [key], stylesheets: [css], fonts: [font] };
    expect(whyOf(found, YOUTUBE.id)).toEqual([
      { kind: 'localStorage', name: key.name, origin: key.origin },
      { kind: 'frame', url: EMBED },
    ]);
    expect(whyOf(found, preset('Google Fonts').id)).toEqual([
      { kind: 'stylesheet', url: css },
      { kind: 'font', url: font },
    ]);
  });
});
