import { z } from 'zod';

/**
 * What the banner reports of the scripts it finds on a domain's pages that no embedding knows
 * (`recordScriptsOnWebsite`), and what the operators read of them.
 */

/** Scripts one report may name. */
export const MAX_SCRIPTS_PER_REPORT = 25;
/** The longest script address a report may name (before its query is cut off). */
export const MAX_SCRIPT_URL_LENGTH = 1024;
/** Findings a domain keeps; a new one pushes out the one seen longest ago. */
export const MAX_FINDINGS_PER_DOMAIN = 500;
/** The intake's body limit: 25 addresses of 1 KiB and the rest fit. */
export const SCRIPT_REPORT_BODY_LIMIT = 32 * 1024;

const httpUrl = (error: string) => z.url({ protocol: /^https?$/, error });

export const scriptReport = z
  .strictObject({
    domain: z.uuid('must be the id of a domain').meta({ description: 'The domain whose banner found the scripts.' }),
    url: httpUrl('must be the http(s) address of the page')
      .max(2048)
      .meta({ description: 'The page the scripts were found on; only its path is kept.' }),
    scripts: z
      .array(httpUrl('must be the http(s) address of a script').max(MAX_SCRIPT_URL_LENGTH, `must be at most ${MAX_SCRIPT_URL_LENGTH} characters`))
      .min(1, 'must name at least one script')
      .max(MAX_SCRIPTS_PER_REPORT, `must name at most ${MAX_SCRIPTS_PER_REPORT} scripts`)
      .meta({ description: 'Addresses of scripts no embedding of the domain claims; the query and fragment are dropped.' }),
  })
  .meta({ id: 'ScriptReport' });

export type ScriptReport = z.infer<typeof scriptReport>;

export const scriptFindingResponse = z
  .strictObject({
    scriptUrl: z.string().meta({ description: 'The script’s address without query or fragment: what identifies the finding.' }),
    pagePath: z.string().meta({ description: 'The path of the page it was first found on (no query).' }),
    firstSeenAt: z.string().meta({ description: 'When the banner first reported it (ISO 8601).' }),
    lastSeenAt: z.string().meta({ description: 'When the banner last reported it (ISO 8601).' }),
    timesSeen: z.int().meta({ description: 'Visitor sessions that reported it (a visitor counts once in 30 minutes).' }),
  })
  .meta({ id: 'ScriptFinding', description: 'A script the banner found on the site that no embedding knows.' });

export type ScriptFinding = z.output<typeof scriptFindingResponse>;

export const scriptFindingListResponse = z
  .array(scriptFindingResponse)
  .meta({ description: `Last seen first; at most ${MAX_FINDINGS_PER_DOMAIN} (the one seen longest ago goes first).` });

/** A script's address as a finding keeps it: no query, no fragment, no user or password; null when it is none. */
export function findingAddress(address: string): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.protocol}//${url.host}${url.pathname}`;
}
