import type { IncomingMessage } from 'node:http';
import { type Asset, asset, type BannerScript } from './banner-delivery.ts';

/**
 * The `Sec-GPC: 1` request header (Global Privacy Control) for domains whose theme complies with
 * privacy signals (`complyWithDoNotTrack`): the page cannot read a request header, so app.js
 * itself tells the runtime (runtime/privacy-signals.ts reads `SEC_GPC_FLAG`). Such a domain's
 * app.js varies by the header; the marked copy is made once per built script.
 */

/** The window property the marked app.js sets before anything else runs. */
export const SEC_GPC_FLAG = '__ccmSecGpc';

/** What the app.js of a domain that honours the signals varies by. */
export const VARY_WITH_GPC = 'Accept-Encoding, Sec-GPC';

const marked = new WeakMap<BannerScript, Asset>();

/** The script to send: marked when the request carries `Sec-GPC: 1`. */
export function forSecGpc(req: IncomingMessage, script: BannerScript): Asset {
  if (req.headers['sec-gpc'] !== '1') return script;
  let copy = marked.get(script);
  if (!copy) {
    copy = asset(`window.${SEC_GPC_FLAG}=1;\n${script.body.toString()}`);
    marked.set(script, copy);
  }
  return copy;
}
