/** Common mail domains offered while an address is typed (spec: mail.ru, yandex.ru and this site's host). */
export const SUGGESTED_DOMAINS = ['mail.ru', 'yandex.ru'] as const;

/**
 * Complete addresses for what has been typed: the same local part at mail.ru, yandex.ru and the
 * current host (when it is a domain name, not localhost or an IP address), keeping only domains that start with what was typed
 * after the @. Nothing while there is no local part, when the input holds whitespace, or when it
 * already is one of the suggestions.
 */
export function emailSuggestions(input: string, host: string): string[] {
  const value = input.trim().toLowerCase();
  const at = value.indexOf('@');
  const local = at === -1 ? value : value.slice(0, at);
  const typedDomain = at === -1 ? '' : value.slice(at + 1);
  if (local === '' || /\s/.test(value) || typedDomain.includes('@')) return [];
  const hostDomain = host.toLowerCase().replace(/^www\./, '');
  // The host is offered when it is a domain name (a dot and a letter suffix: not localhost, not an IP).
  const hostIsDomain = /^[^.]+(\.[^.]+)*\.[a-z]{2,}$/.test(hostDomain);
  const domains = [...SUGGESTED_DOMAINS, ...(hostIsDomain && !SUGGESTED_DOMAINS.includes(hostDomain as never) ? [hostDomain] : [])];
  return domains.filter((domain) => domain.startsWith(typedDomain) && domain !== typedDomain).map((domain) => `${local}@${domain}`);
}
