import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestAddress, type TrustProxy } from '../load-address.ts';
import { asksConsent } from './consent-region.ts';
import { countryDatabase, type CountryLookup } from './country-database.ts';
import { countryFromHeader } from './country-header.ts';

/** Where the banner of a domain with `enableOnlyInEu` asks whether its visitor is asked. */
export const REGION_PATH = '/banner/region';

export type VisitorRegionOptions = {
  /**
   * A header a CDN in front of the service sets to the visitor's country (COUNTRY_HEADER), in
   * lower case. Set: it alone decides (the address the service sees is the CDN's); unset: the
   * address is looked up in `lookup`.
   */
  countryHeader?: string;
  /** Address → country; default: the shipped database (or COUNTRY_DATABASE). */
  lookup?: CountryLookup;
  /** Which proxies to believe about the visitor's address (TRUST_PROXY). */
  trustProxy?: TrustProxy;
};

export type VisitorRegion = {
  /** Whether the visitor of `request` is asked for consent: in the region, or where they are is not known. */
  asks(request: IncomingMessage): boolean;
  /**
   * Answers `GET /banner/region`, never cached: `{"eu":…,"us":…,"country":…}`. `eu`: whether the
   * visitor is asked (`enableOnlyInEu`); `us`: whether they are in the United States, where a
   * domain with `usPrivacyModel` `opt-out` answers GPP's US National section (one section for
   * every state, so no state is needed); `country`: ISO 3166-1 alpha-2, null when not known.
   */
  send(request: IncomingMessage, response: ServerResponse): void;
};

/** The answer for a country, as sent. */
export const regionAnswer = (country: string | undefined) => ({ eu: asksConsent(country), us: country === 'US', country: country ?? null });

/**
 * The visitor's region, for `enableOnlyInEu`. A separate answer rather than a per-region app.js:
 * app.js stays one public, cacheable script per domain (its ETag and 304s untouched), and no
 * cache that ignores `Vary` can hand one region's banner to another. The answer depends on the
 * visitor only, not on a domain: it reads no SQL.
 */
export function visitorRegion(options: VisitorRegionOptions = {}): VisitorRegion {
  const header = options.countryHeader?.toLowerCase();
  const lookup = options.lookup ?? countryDatabase();
  const addressOf = requestAddress(options.trustProxy ?? false);
  const countryOf = header ? (request: IncomingMessage) => countryFromHeader(request.headers[header]) : (request: IncomingMessage) => lookup(addressOf(request));
  const asks = (request: IncomingMessage) => asksConsent(countryOf(request));
  return {
    asks,
    send(request, response) {
      const body = Buffer.from(JSON.stringify(regionAnswer(countryOf(request))));
      response.writeHead(200, [
        'Content-Type', 'application/json', 'Access-Control-Allow-Origin', '*', 'Cross-Origin-Resource-Policy', 'cross-origin',
        'X-Content-Type-Options', 'nosniff', 'Cache-Control', 'private, no-store', 'Content-Length', body.length,
      ]);
      response.end(request.method === 'HEAD' ? undefined : body);
    },
  };
}
