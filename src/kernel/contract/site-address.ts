/**
 * A domain's `name` as a client sends it: a host name, optionally with scheme, port and path
 * (`www.example.org`, `https://www.example.org/shop/`, `http://127.0.0.1:8080/`).
 */
export type SiteAddress = {
  scheme: 'http' | 'https';
  host: string;
  /** null: the scheme's default port */
  port: number | null;
  path: string;
};

/** Which parts the client wrote out; the others were filled with defaults. */
export type ParsedSiteAddress = SiteAddress & { hasScheme: boolean; hasPort: boolean; hasPath: boolean };

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function isHostName(host: string): boolean {
  if (host.startsWith('[')) return true; // IPv6 literal, already checked by URL
  if (host.length > 253) return false;
  return host.split('.').every((label) => HOST_LABEL.test(label));
}

export function parseSiteAddress(input: string): ParsedSiteAddress | { problem: string } {
  if (input === '') return { problem: 'must be a host name such as www.example.org' };
  if (/\s/.test(input)) return { problem: 'must not contain spaces' };
  const trimmed = input;
  const scheme = SCHEME.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') {
    return { problem: 'scheme must be http or https' };
  }
  const withScheme = scheme ? trimmed : `https://${trimmed}`;
  if (!URL.canParse(withScheme)) return { problem: 'must be a host name, optionally with scheme, port and path' };
  const url = new URL(withScheme);
  if (url.username || url.password) return { problem: 'must not contain credentials' };
  if (url.search || url.hash || trimmed.includes('?') || trimmed.includes('#')) {
    return { problem: 'must not contain a query or fragment' };
  }
  if (!url.hostname || !isHostName(url.hostname)) return { problem: 'must contain a valid host name' };
  const afterHost = trimmed.replace(SCHEME, '').replace(/^[^/]*/, '');
  return {
    scheme: url.protocol === 'http:' ? 'http' : 'https',
    host: url.hostname,
    port: url.port === '' ? null : Number(url.port),
    path: url.pathname || '/',
    hasScheme: scheme !== undefined,
    hasPort: url.port !== '',
    hasPath: afterHost !== '',
  };
}

/** The whole site address a scan opens: scheme, host, port and path. */
export function siteUrl(address: Omit<SiteAddress, 'port'> & { port?: number | null }): string {
  const port = address.port == null ? '' : `:${address.port}`;
  return `${address.scheme}://${address.host}${port}${address.path}`;
}
