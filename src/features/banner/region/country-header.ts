/**
 * The country a trusted CDN names in a header of its own (`CF-IPCountry`,
 * `CloudFront-Viewer-Country`, `X-Vercel-IP-Country`, …), or undefined when it names none: a
 * missing or repeated header, a value that is no country code, or one of the codes CDNs use
 * for "not known" (`XX`, `ZZ`), Tor (`T1`) and anonymous proxies (`A1`, `A2`, `O1`).
 */
export function countryFromHeader(value: string | string[] | undefined): string | undefined {
  if (typeof value !== 'string' || value.length !== 2) return undefined;
  const country = value.toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || NOT_A_COUNTRY.has(country)) return undefined;
  return country;
}

const NOT_A_COUNTRY = new Set(['XX', 'ZZ', 'T1', 'A1', 'A2', 'O1']);
