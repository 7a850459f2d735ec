/**
 * The GPP bundle (`/banner/gpp-<hash>.js`): loaded by app.js only for domains whose US visitors
 * get the opt-out model (`usPrivacyModel`). Its own entry point, so that no other domain's
 * visitors load any of it. It takes over the stub's `__gpp` (gpp-start.ts) with IAB's CMP API
 * library: for a visitor in the US the US National section (usnat), for anyone else no
 * applicable section (`[-1]`); and it adds the "Do Not Sell or Share" control.
 */
import { CmpApi, CmpStatus, SignalStatus, UsNat } from '@iabgpp/cmpapi';
import { HANDOVER, type Handover } from '../handover.ts';
import { DO_NOT_SELL_HASH, gpcSent, storedOptOut } from '../us-privacy.ts';
import { doNotSellControl } from './do-not-sell.ts';
import { writeUsNat } from './usnat.ts';

/** This CMP's own version number in GPP's ping (`cmpVersion`). */
const CMP_VERSION = 1;

type WithDoNotSell = { openDoNotSell?: () => void; openControlPanel?: () => void };

async function start(handover: Handover): Promise<void> {
  const { config } = handover;
  const cmp = new CmpApi(config.gpp!.cmpId, CMP_VERSION);
  cmp.setSupportedAPIs([`${UsNat.ID}:${UsNat.NAME}`]);
  cmp.setCmpStatus(CmpStatus.LOADED);
  const us = await (handover.usVisitor ?? Promise.resolve(false));

  let open: () => void;
  if (us) {
    let optedOut = storedOptOut(config);
    const publish = () => {
      writeUsNat(cmp, { optedOut, gpc: gpcSent() });
      (handover.privacyStrings ??= {}).gppString = cmp.getGppString();
    };
    cmp.setApplicableSections([UsNat.ID]);
    publish();
    const control = doNotSellControl(
      () => optedOut || gpcSent(),
      () => {
        optedOut = true;
        // The record of the choice carries the string that says it.
        publish();
        handover.saveUsOptOut?.();
        cmp.fireSectionChange(UsNat.NAME);
      },
    );
    open = control.open;
    // A choice made in the banner's settings can opt out (or back in) too.
    addEventListener('ccm19ConsentChanged', () => {
      const now = storedOptOut(config);
      if (now === optedOut) return;
      optedOut = now;
      publish();
      cmp.fireSectionChange(UsNat.NAME);
    });
  } else {
    // No US law applies: the banner's own settings are where a choice is made.
    cmp.setApplicableSections([-1]);
    open = () => (window.CCM as WithDoNotSell | undefined)?.openControlPanel?.();
  }
  cmp.setSignalStatus(SignalStatus.READY);

  // `window.CCM` is the runtime's: the control joins it whenever it is (re)installed.
  const attach = () => {
    if (window.CCM) (window.CCM as WithDoNotSell).openDoNotSell = open;
  };
  attach();
  addEventListener('ccm19WidgetLoaded', attach);
  document.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(link instanceof HTMLAnchorElement) || link.hash !== DO_NOT_SELL_HASH) return;
    event.preventDefault();
    open();
  });
}

const handover = window[HANDOVER];
if (handover?.config.gpp) void start(handover);
