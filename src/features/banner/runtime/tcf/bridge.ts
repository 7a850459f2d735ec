import type { TcfSettings, TcfVendorList } from '../../banner-config.ts';
import type { TcfChoice } from './choice.ts';

/** How the visitor chose in the banner's own layers: cookieconsent's "accept all", "reject all", or a save of the settings. */
export type BannerChoiceKind = 'all' | 'none' | 'custom';

/** What the runtime offers the TCF bundle. */
export type BannerSide = {
  /** Accepts (true) or rejects (false) the banner's services, by id; the runtime then reports the choice back (`chose`). */
  setServices(states: Map<string, boolean>): void;
  /** Opens the banner's settings (the TCF layers' way from the first layer to the vendors). */
  showPreferences(): void;
};

/**
 * The TCF bundle's side, handed to the runtime on `window.__ccmBanner.tcf` (a promise: the list
 * and the region are fetched first). The runtime waits for it, bounded, before it shows the banner.
 */
export type TcfBridge = {
  settings: TcfSettings;
  list: TcfVendorList;
  /** GDPR applies to this visitor (in the region, or where they are is not known). */
  gdprApplies: boolean;
  /** The banner has a consent but the TCF choice is missing or stale (the vendors asked changed): the banner asks again. */
  asksAgain(bannerHasConsent: boolean): boolean;
  /** The runtime is ready; `banner` lets the TCF layers' choice reach the banner's services. */
  connect(banner: BannerSide): void;
  /** A layer of the banner is shown (cmpuishown). */
  shown(): void;
  /**
   * The visitor chose in the banner (`accepted`: the services accepted now). Sets the TC and AC
   * strings (handover.privacyStrings), stores them, tells the CMP API's listeners (useractioncomplete).
   * Called before the choice is recorded.
   */
  chose(kind: BannerChoiceKind, accepted: ReadonlySet<string>): void;
  /** cookieconsent's modal is built: the TCF layers (layers.ts) go into it. */
  modalReady(name: string, modal: HTMLElement): void;
  /** The current choice: the stored or made one, else "reject all". */
  current(): TcfChoice;
};
