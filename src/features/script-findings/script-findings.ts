import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { MAX_FINDINGS_PER_DOMAIN, type ScriptFinding } from './script-finding.contract.ts';

/** What the intake needs of a domain: whether it records scripts, and the sites its pages may be on. */
export type ReportingDomain = { recording: boolean; site: { host: string; sharingDomains: string[] } };

/** The domain's current setting and names (not a revision's: switching the setting off refuses reports at once); null: no such domain. */
export async function reportingDomain(orm: MikroORM, domainId: string): Promise<ReportingDomain | null> {
  const rows = await orm.em
    .fork()
    .getConnection()
    .execute<{ recording: boolean; host: string; sharing: string[] | string }[]>(
      `select "record_scripts_on_website" as "recording", "host", "consent_sharing_domains" as "sharing" from "domain" where "id" = ?`,
      [domainId],
    );
  const row = rows[0];
  if (!row) return null;
  const sharing = typeof row.sharing === 'string' ? (JSON.parse(row.sharing) as string[]) : row.sharing;
  return { recording: row.recording, site: { host: row.host, sharingDomains: sharing } };
}

/**
 * Records scripts found on a page of the domain, in one statement: a new one with the page's path,
 * one seen before once more. Then drops the findings beyond MAX_FINDINGS_PER_DOMAIN, those seen
 * longest ago first. Nothing if the domain is gone meanwhile.
 */
export async function recordScriptFindings(orm: MikroORM, domainId: string, pagePath: string, scripts: readonly string[]): Promise<void> {
  const connection = orm.em.fork().getConnection();
  await connection.execute(
    `insert into "script_finding" ("domain_id", "script_url", "page_path") ` +
      `select d."id", s."value", ? from "domain" d, jsonb_array_elements_text(?::jsonb) as s("value") where d."id" = ? ` +
      `on conflict ("domain_id", "script_url") do update set "last_seen_at" = clock_timestamp(), ` +
      `"times_seen" = least("script_finding"."times_seen", 2147483646) + 1`,
    [pagePath, JSON.stringify(scripts), domainId],
    'run',
  );
  await connection.execute(
    `delete from "script_finding" where "domain_id" = ? and "script_url" in ` +
      `(select "script_url" from "script_finding" where "domain_id" = ? order by "last_seen_at" desc, "script_url" offset ${MAX_FINDINGS_PER_DOMAIN})`,
    [domainId, domainId],
    'run',
  );
}

type FindingRow = { script_url: string; page_path: string; first_seen_at: Date | string; last_seen_at: Date | string; times_seen: number };

/** The domain's findings, last seen first. */
export async function scriptFindingsOf(em: EntityManager, domainId: string): Promise<ScriptFinding[]> {
  const rows = await em.execute<FindingRow[]>(
    `select "script_url", "page_path", "first_seen_at", "last_seen_at", "times_seen" from "script_finding" ` +
      `where "domain_id" = ? order by "last_seen_at" desc, "script_url"`,
    [domainId],
  );
  return rows.map((row) => ({
    scriptUrl: row.script_url,
    pagePath: row.page_path,
    firstSeenAt: new Date(row.first_seen_at).toISOString(),
    lastSeenAt: new Date(row.last_seen_at).toISOString(),
    timesSeen: row.times_seen,
  }));
}
