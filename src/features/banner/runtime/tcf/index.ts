import type { BannerConfig, TcfSettings, TcfVendorList } from '../../banner-config.ts';
import { HANDOVER, type Handover } from '../handover.ts';
import { chooseLocale } from '../locale.ts';
import { validStoredConsent } from '../stored-consent.ts';
import { additionalConsentString } from './additional-consent.ts';
import type { BannerChoiceKind, BannerSide, TcfBridge } from './bridge.ts';
import { allAccepted, allRejected, copyChoice, type TcfChoice } from './choice.ts';
import { startCmpApi } from './cmp.ts';
import { askedKey, readTcfChoice, writeTcfChoice } from './stored-choice.ts';
import { tcStrings } from './tc-string.ts';
import { mountTcfLayers, type TcfLayers } from './layers.ts';
import { fillMacros, type MacroValues } from './url-macros.ts';

/**
 * The TCF bundle (`/banner/tcf-<hash>.js`): loaded by app.js only for domains with `tcfEnabled`.
 * The CMP API takes over the stub's `__tcfapi` at once; the TC strings follow once the domain's
 * vendor list and the region's answer are in. The runtime (runtime.ts) tells it what the
 * visitor is shown and chooses (bridge.ts); a returning visitor's stored choice is `tcloaded`.
 */

async function fetchList(url: string): Promise<TcfVendorList> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok) throw new Error(`vendor list: HTTP ${response.status}`);
  return (await response.json()) as TcfVendorList;
}

async function start(handover: Handover, config: BannerConfig, settings: TcfSettings): Promise<TcfBridge | null> {
  const cmp = startCmpApi(settings.cmpId, settings.cmpVersion, settings.policyVersion);
  const [list, gdprApplies] = await Promise.all([fetchList(settings.vendorListUrl), handover.gdprApplies ?? Promise.resolve(true)]).catch(() => [null, true] as const);
  if (!list) {
    // No list, no TC string: the CMP says so (cmpStatus `error`) rather than answer nothing.
    cmp.api.disable();
    return null;
  }
  const locale = chooseLocale(config, document.documentElement.lang, navigator.languages);
  const strings = tcStrings(settings, list, locale);
  cmp.serveVendorList(strings.gvl);
  const providers = settings.additionalConsentProviders;

  const stored = readTcfChoice(config);
  const storedValid = (bannerHasConsent: boolean) => !!stored && stored.asked === askedKey(settings) && bannerHasConsent && strings.decode(stored.tcString) !== null;
  let current: { choice: TcfChoice; tcString: string; acString: string | null } | null = null;
  let visible = false;
  let banner: BannerSide | null = null;
  let layers: TcfLayers | null = null;
  // What the visitor set in the TCF layers since the last choice: it is the choice when they save the settings.
  let edited: TcfChoice | null = null;

  // The strings in force: the choice's, or while the banner asks, "reject all"'s (what the CMP says then).
  let shownStrings: { tcString: string; acString: string | null } | null = null;
  const inForce = () => current ?? shownStrings;
  const macros = settings.urlMacros.fill || settings.urlMacros.autoAppend;
  const macroValues = (): MacroValues => ({
    gdpr: gdprApplies ? '1' : '0',
    gdpr_consent: gdprApplies ? (inForce()?.tcString ?? '') : '',
    addtl_consent: gdprApplies ? (inForce()?.acString ?? '') : '',
  });
  const refresh = () => {
    cmp.setAdditionalConsent(inForce()?.acString ?? null);
    if (macros) fillMacros(document, macroValues(), settings.urlMacros.autoAppend);
  };
  const publish = (tcString: string, acString: string | null) => {
    handover.privacyStrings = { ...handover.privacyStrings, tcString, ...(acString !== null && { acString }) };
    refresh();
  };
  const acOf = (choice: TcfChoice) => (providers ? additionalConsentString(providers, choice.additionalConsent ?? new Set()) : null);

  if (stored && storedValid(!!validStoredConsent(config))) {
    const choice = strings.decode(stored.tcString)!;
    if (stored.acString && providers) choice.additionalConsent = new Set(stored.acString.split('~')[1]?.split('.').filter(Boolean).map(Number));
    current = { choice, tcString: stored.tcString, acString: providers ? stored.acString : null };
  }
  if (!gdprApplies) cmp.api.update(null);
  if (current) {
    publish(current.tcString, current.acString);
    if (gdprApplies) cmp.api.update(current.tcString);
  } else refresh();
  if (macros) {
    // Held content and links that come later get the present values as they appear.
    new MutationObserver((records) => {
      for (const record of records) record.addedNodes.forEach((node) => node instanceof Element && fillMacros(node, macroValues(), settings.urlMacros.autoAppend));
    }).observe(document.documentElement, { childList: true, subtree: true });
  }

  /** The banner's own layers map to TCF: every vendor an embedding names follows that embedding; a newly consented one brings its purposes. */
  const fromServices = (accepted: ReadonlySet<string>): TcfChoice => {
    const choice = copyChoice(current?.choice ?? allRejected(settings, list));
    for (const category of config.categories) {
      for (const service of category.services) {
        if (service.tcfVendor === undefined) continue;
        if (!accepted.has(service.id)) {
          choice.vendorsConsent.delete(service.tcfVendor);
          continue;
        }
        const vendor = list.vendors[String(service.tcfVendor)];
        // A vendor consented already keeps the purposes chosen for it (in the TCF layers).
        if (!vendor || choice.vendorsConsent.has(vendor.id)) continue;
        choice.vendorsConsent.add(vendor.id);
        for (const id of [...vendor.purposes, ...vendor.flexiblePurposes]) choice.purposesConsent.add(id);
      }
    }
    return choice;
  };

  const apply = (choice: TcfChoice) => {
    const tcString = strings.encode(choice);
    const acString = acOf(choice);
    current = { choice, tcString, acString };
    writeTcfChoice(config, { tcString, acString, asked: askedKey(settings) });
    publish(tcString, acString);
    visible = false;
    if (gdprApplies) cmp.api.update(tcString);
  };

  return {
    settings,
    list,
    gdprApplies,
    asksAgain: (bannerHasConsent) => bannerHasConsent && !storedValid(bannerHasConsent),
    connect(side) {
      banner = side;
    },
    shown() {
      if (!gdprApplies || visible) return;
      visible = true;
      // TCF 2.2: the string while the UI shows has every legitimate interest and no consent, or the choice made before.
      if (!current) {
        const rejected = allRejected(settings, list);
        shownStrings = { tcString: strings.encode(rejected), acString: acOf(rejected) };
        refresh();
      }
      cmp.api.update(inForce()!.tcString, true);
    },
    chose(kind: BannerChoiceKind, accepted) {
      const choice = kind === 'all' ? allAccepted(settings, list) : kind === 'none' ? allRejected(settings, list) : (edited ?? fromServices(accepted));
      const fromLayers = kind === 'custom' && edited !== null;
      edited = null;
      apply(choice);
      layers?.setChoice(choice);
      if (!fromLayers) return;
      // Made in the TCF layers: an embedding with `tcfVendor` is accepted iff its vendor is consented.
      const states = new Map<string, boolean>();
      for (const category of config.categories) {
        for (const service of category.services) {
          if (service.tcfVendor !== undefined && !category.readOnly && choice.vendorsConsent.has(service.tcfVendor) !== accepted.has(service.id)) {
            states.set(service.id, choice.vendorsConsent.has(service.tcfVendor));
          }
        }
      }
      // After this choice is through: the change comes back as a choice of its own.
      if (states.size > 0) setTimeout(() => banner?.setServices(states));
    },
    modalReady(name, modal) {
      const texts = config.texts[locale]?.tcf;
      if (!texts) return;
      layers ??= mountTcfLayers({
        settings,
        list,
        locale,
        texts,
        choice: copyChoice(current?.choice ?? allRejected(settings, list)),
        onChange: (choice) => (edited = choice),
        openSecondLayer: () => banner?.showPreferences(),
      });
      if (name === 'consentModal') layers.addToFirstLayer(modal);
      else if (name === 'preferencesModal') layers.addToSecondLayer(modal);
    },
    current: () => copyChoice(current?.choice ?? allRejected(settings, list)),
  };
}

const handover = window[HANDOVER];
const settings = handover?.config.tcf;
if (handover && settings) handover.tcf = start(handover, handover.config, settings).catch(() => null);
