import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { type CountryResponse, Reader } from 'maxmind';
import { isSpecialAddress } from './special-addresses.ts';

/** The IP-to-country database shipped with the service (CC BY 4.0 data of the NRO, via @ip-location-db). */
export const SHIPPED_COUNTRY_DATABASE = createRequire(import.meta.url).resolve(
  '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
);

/** A record of an MMDB country database: ip-location-db's shape, or MaxMind's (GeoLite2 / GeoIP2 Country). */
type CountryRecord = { country_code?: string; country?: { iso_code?: string } };

/** The country of an address (upper case), or undefined: not in the database (loopback, private ranges), or not an address. */
export type CountryLookup = (address: string) => string | undefined;

/**
 * Opens an MMDB country database (read whole into memory, ~8 MB for the shipped one) on its
 * first lookup: a service that trusts a CDN's header, or whose domains never ask, never reads it.
 * A database that cannot be read leaves every country unknown, which asks every visitor; `onError`
 * hears of it once.
 */
export function countryDatabase(path: string = SHIPPED_COUNTRY_DATABASE, onError: (error: unknown) => void = () => {}): CountryLookup {
  let reader: Reader<CountryResponse> | null | undefined;
  const open = () => {
    try {
      return new Reader<CountryResponse>(readFileSync(path));
    } catch (error) {
      onError(error);
      return null;
    }
  };
  return (address) => {
    // An IPv4 client on a dual-stack socket: ::ffff:192.0.2.1.
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const version = isIP(plain);
    if (version === 0 || isSpecialAddress(plain, version as 4 | 6)) return undefined;
    if (reader === undefined) reader = open();
    if (!reader) return undefined;
    const found = reader.get(plain) as CountryRecord | null;
    const code = found?.country_code ?? found?.country?.iso_code;
    return code ? code.toUpperCase() : undefined;
  };
}
