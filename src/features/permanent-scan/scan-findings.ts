import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../kernel/ids.ts';
import type { OnboardingScanResult } from '../onboarding/onboarding.contract.ts';
import type { FindingDetail, ScanFinding } from './scan-finding.contract.ts';

/** What the domain's embeddings declare: their assets (names or patterns, by kind) and the catalog services they were made for. */
type Declared = { assets: { name: string; dynamic: boolean; storageType: string }[]; presetIds: Set<number>; names: Set<string> };

async function declaredOf(em: EntityManager, domainId: string): Promise<Declared> {
  const assets = await em.execute<{ name: string; dynamic: boolean; storage_type: string }[]>(
    `select a."name", a."dynamic", a."storage_type" from "embedding_asset" a join "embedding" e on e."id" = a."embedding_id" where e."domain_id" = ?`,
    [domainId],
  );
  const embeddings = await em.execute<{ name: string; catalog_key: string | null }[]>(
    `select "name", "catalog_key" from "embedding" where "domain_id" = ?`,
    [domainId],
  );
  return {
    assets: assets.map((asset) => ({ name: asset.name, dynamic: asset.dynamic, storageType: asset.storage_type })),
    presetIds: new Set(embeddings.flatMap((e) => (e.catalog_key?.startsWith('preset:') ? [Number(e.catalog_key.slice('preset:'.length))] : []))),
    names: new Set(embeddings.map((e) => e.name.toLowerCase())),
  };
}

const patternOf = (name: string) => new RegExp(`^${name.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);

function declares(declared: Declared, storageType: string, name: string): boolean {
  return declared.assets.some((asset) => asset.storageType === storageType && (asset.dynamic ? patternOf(asset.name).test(name) : asset.name === name));
}

type Candidate = { kind: ScanFinding['kind']; key: string; name: string; detail: FindingDetail };

/** What the scan found that no embedding declares: cookies and storage keys by name, services by preset (or an embedding of that name). */
export function undeclaredIn(result: OnboardingScanResult, declared: Declared): Candidate[] {
  const found = new Map<string, Candidate>();
  const add = (candidate: Candidate) => found.has(`${candidate.kind} ${candidate.key}`) || found.set(`${candidate.kind} ${candidate.key}`, candidate);
  for (const cookie of result.storage.cookies) {
    if (!declares(declared, 'cookie', cookie.name)) add({ kind: 'cookie', key: cookie.name, name: cookie.name, detail: { cookie } });
  }
  for (const storageType of ['localStorage', 'sessionStorage'] as const) {
    for (const key of result.storage[storageType]) {
      if (!declares(declared, storageType, key.name)) {
        add({ kind: 'storage', key: `${storageType} ${key.name}`, name: key.name, detail: { storageType, name: key.name, origin: key.origin } });
      }
    }
  }
  for (const preset of result.availablePresets) {
    if (!declared.presetIds.has(preset.id) && !declared.names.has(preset.name.toLowerCase())) {
      add({ kind: 'service', key: String(preset.id), name: preset.name, detail: { presetId: preset.id, name: preset.name, vendor: preset.vendor } });
    }
  }
  return [...found.values()];
}

type FindingRecord = {
  id: string;
  domain_id: string;
  kind: ScanFinding['kind'];
  name: string;
  detail: FindingDetail | string;
  first_scan_id: string;
  last_scan_id: string;
  first_seen_at: Date | string;
  last_seen_at: Date | string;
  times_seen: number;
  inserted?: boolean;
};

const COLUMNS = `"id", "domain_id", "kind", "name", "detail", "first_scan_id", "last_scan_id", "first_seen_at", "last_seen_at", "times_seen"`;

export const toFinding = (row: FindingRecord): ScanFinding => ({
  id: row.id,
  domainId: row.domain_id,
  kind: row.kind,
  name: row.name,
  detail: typeof row.detail === 'string' ? (JSON.parse(row.detail) as FindingDetail) : row.detail,
  firstScanId: row.first_scan_id,
  lastScanId: row.last_scan_id,
  firstSeenAt: new Date(row.first_seen_at).toISOString(),
  lastSeenAt: new Date(row.last_seen_at).toISOString(),
  timesSeen: row.times_seen,
});

/**
 * Records what the scan found that no embedding declares, in one statement: a finding seen before
 * is seen once more, a new one is added. Returns the new ones (what a webhook hears about).
 */
export async function recordFindings(em: EntityManager, scan: { id: string; domainId: string; result: OnboardingScanResult }): Promise<ScanFinding[]> {
  const candidates = undeclaredIn(scan.result, await declaredOf(em, scan.domainId));
  if (candidates.length === 0) return [];
  const rows = await em.execute<FindingRecord[]>(
    `insert into "scan_finding" ("id", "domain_id", "kind", "key", "name", "detail", "first_scan_id", "last_scan_id") ` +
      `select x."id", ?, x."kind", x."key", x."name", x."detail", ?, ? from jsonb_to_recordset(?::jsonb) as x("id" uuid, "kind" text, "key" text, "name" text, "detail" jsonb) ` +
      `on conflict ("domain_id", "kind", "key") do update set "last_scan_id" = excluded."last_scan_id", "last_seen_at" = clock_timestamp(), ` +
      `"times_seen" = "scan_finding"."times_seen" + 1, "detail" = excluded."detail" ` +
      `returning ${COLUMNS}, (xmax = 0) as "inserted"`,
    [scan.domainId, scan.id, scan.id, JSON.stringify(candidates.map((candidate) => ({ id: newId(), ...candidate })))],
  );
  return rows.filter((row) => row.inserted).map(toFinding);
}

export async function findingsOf(em: EntityManager, domainId: string): Promise<ScanFinding[]> {
  const rows = await em.execute<FindingRecord[]>(
    `select ${COLUMNS} from "scan_finding" where "domain_id" = ? order by "first_seen_at" desc, "id" desc`,
    [domainId],
  );
  return rows.map(toFinding);
}

/** Dismisses a finding (a later scan that finds it again records it anew). False: no such finding of the domain. */
export async function dismissFinding(em: EntityManager, domainId: string, id: string): Promise<boolean> {
  const rows = await em.execute<{ id: string }[]>(`delete from "scan_finding" where "id" = ? and "domain_id" = ? returning "id"`, [id, domainId]);
  return rows.length > 0;
}
