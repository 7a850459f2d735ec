/** The names of the cookies the page can read. */
export const cookieNames = (): string[] =>
  document.cookie
    .split(';')
    .map((part) => part.split('=')[0]!.trim())
    .filter((name) => name !== '');

/** Expires a cookie at path `/`, whether set for the host alone or for the host or one of its parent domains. */
export function eraseCookie(name: string): void {
  const expired = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:01 GMT`;
  document.cookie = expired;
  const labels = location.hostname.split('.');
  for (let index = 0; index < labels.length - 1; index++) document.cookie = `${expired}; Domain=.${labels.slice(index).join('.')}`;
}
