import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../schema/errors';
import type { WireLinkPreview } from '../../../schema/linkPreview';
import type { Database } from '../../db/types';
import { AppError } from '../../errors';
import { fetchLinkPreview } from '../../net/linkPreview';
import { SafeFetchError, type SafeFetchOptions } from '../../net/safeFetch';
import { findLinkPreview, saveLinkPreview } from '../../repositories/linkPreviews';
import { nowIso } from '../../time';

/** How long a preview read is given again without reading the page anew. */
export const PREVIEW_KEPT_MS = 24 * 60 * 60 * 1000;
/** How long a failure is given again (a page down for a moment is tried again soon). */
export const FAILURE_KEPT_MS = 10 * 60 * 1000;

/** Why a page could not be read, as the error the caller gets. */
function refusal(code: string): AppError {
  return code === ERROR_CODES.linkAddressRefused
    ? new AppError(422, ERROR_CODES.linkAddressRefused, 'this address may not be fetched: only public http and https addresses are')
    : new AppError(502, ERROR_CODES.linkUnreachable, 'the page could not be read: it did not answer in time, could not be reached or redirected too often');
}

function failureCode(error: SafeFetchError): string {
  return error.reason === 'scheme' || error.reason === 'credentials' || error.reason === 'address'
    ? ERROR_CODES.linkAddressRefused
    : ERROR_CODES.linkUnreachable;
}

/** Reads of one address under way in this process: a second caller waits for the first's. */
const underWay = new Map<string, Promise<WireLinkPreview>>();

/** The key a page is kept under: the address as the URL parser writes it, without its fragment (never sent). */
export function previewKey(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * A link's preview (docs/api/blocks.md «Link previews»): the one kept when it is younger than a
 * day (a failure: ten minutes), else the page read now through safeFetch (SSRF-guarded: only
 * public http(s) addresses, after DNS and every redirect; 5 s; no cookies) and kept; `fresh`
 * reads the page again whatever is kept. A refused address is 422 link.address_refused; a page
 * that cannot be read is 502 link.unreachable. A page that answers but is no HTML, or an error
 * page, gives a preview with nothing but its address.
 */
export async function linkPreview(
  db: Kysely<Database>,
  url: string,
  { fetchOptions = {}, fresh = false }: { fetchOptions?: SafeFetchOptions; fresh?: boolean } = {},
): Promise<WireLinkPreview> {
  const key = previewKey(url);
  const kept = fresh ? null : await findLinkPreview(db, key);
  if (kept) {
    const age = Date.now() - Date.parse(kept.fetchedAt);
    if (kept.preview && age < PREVIEW_KEPT_MS) return { ...kept.preview, url };
    if (kept.failure && age < FAILURE_KEPT_MS) throw refusal(kept.failure);
  }
  let reading = underWay.get(key);
  if (!reading) {
    reading = read(db, key, fetchOptions).finally(() => underWay.delete(key));
    underWay.set(key, reading);
  }
  return { ...(await reading), url };
}

async function read(db: Kysely<Database>, key: string, fetchOptions: SafeFetchOptions): Promise<WireLinkPreview> {
  const fetchedAt = nowIso();
  try {
    const page = await fetchLinkPreview(key, fetchOptions);
    const preview: WireLinkPreview = {
      url: key,
      finalUrl: page.url,
      title: page.title,
      description: page.description,
      image: page.image,
      icon: page.icon,
      siteName: page.siteName,
      fetchedAt,
    };
    await saveLinkPreview(db, key, { preview, failure: null, fetchedAt });
    return preview;
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    const code = failureCode(error);
    await saveLinkPreview(db, key, { preview: null, failure: code, fetchedAt });
    throw refusal(code);
  }
}
