/**
 * GraphQL: the whole-domain query at 10, 100 and 1,000 embeddings against the baseline's
 * hand-written whole-domain read and against PostGraphile 5 on the same database; the query with
 * every locale's texts against the baseline; a client's domains with their lists against
 * PostGraphile. Before any load, both GraphQL servers' answers are compared, normalised for
 * naming: the benchmark stops if they hold different data.
 */
import { siteUrl } from '../../src/kernel/contract/site-address.ts';
import { type Bench, JSON_HEADERS, type SeededDomain } from '../lib/bench.ts';
import { compare, type LoadInput, type Server } from '../lib/measure.ts';
import { addTarget, ratioText, type Row } from '../lib/report.ts';
import { fmt } from '../lib/stats.ts';

const SECTION = 'graphql';

// ── the queries: the same columns of the same rows from both ────────────────

const SERVICE_WHOLE_DOMAIN = `query($c: ID!, $d: ID!) { domain(clientId: $c, id: $d) { name url locales
  placeholders { name value } themes { id name default primaryButtonBackgroundColor widgetPosition }
  embeddings { id name active purpose vendor translations { locale name } assets { id name storageType lifetime description } } } }`;

/**
 * PostGraphile's names for the same selection: a table's `id` column is its `rowId` (the Amber
 * preset gives `id` to the global node id), `default` is the stored `isDefault`, lists are
 * connections named after their foreign key. The service's `name` and `url` are the stored host
 * and the address made of scheme, host, port and path; `translations` is one JSON column, which
 * the service shows as a list of locales. The condition on the client makes PostGraphile check
 * whose the domain is in its statement, as the service does.
 */
const POSTGRAPHILE_WHOLE_DOMAIN = `query($c: UUID!, $d: UUID!) { allDomains(condition: { rowId: $d, clientId: $c }) { nodes {
  host scheme port path locales
  placeholdersByDomainId { nodes { name value } }
  themesByDomainId { nodes { rowId name isDefault primaryButtonBackgroundColor widgetPosition } }
  embeddingsByDomainId { nodes { rowId name active purpose vendor translations
    embeddingAssetsByEmbeddingId(orderBy: POSITION_ASC) { nodes { rowId name storageType lifetime description } } } } } } }`;

const SERVICE_CLIENT_LISTS = `query($c: ID!) { client(id: $c) { id username domains { id name url
  placeholders { name value } themes { id name default }
  embeddings { id name purpose assets { id name } } } } }`;

const POSTGRAPHILE_CLIENT_LISTS = `query($c: UUID!) { clientByRowId(rowId: $c) { rowId username domainsByClientId { nodes { rowId host scheme port path
  placeholdersByDomainId { nodes { name value } } themesByDomainId { nodes { rowId name isDefault } }
  embeddingsByDomainId { nodes { rowId name purpose embeddingAssetsByEmbeddingId(orderBy: POSITION_ASC) { nodes { rowId name } } } } } } } }`;

const WITH_LOCALES = SERVICE_WHOLE_DOMAIN.replace(
  'embeddings {',
  'localeTexts { name active widgetTitle widgetIntroText widgetFullConsentButtonText widgetDeclineButtonText purposeNames { purpose text } } embeddings {',
);

// ── comparing the answers ───────────────────────────────────────────────────

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** PostGraphile's connection fields → the service's list names (`rowId` → `id`, `isDefault` → `default` below). */
const LISTS: Record<string, string> = {
  domainsByClientId: 'domains',
  placeholdersByDomainId: 'placeholders',
  themesByDomainId: 'themes',
  embeddingsByDomainId: 'embeddings',
  embeddingAssetsByEmbeddingId: 'assets',
};

const byKey = (key: string) => (a: Json, b: Json) =>
  String((a as Record<string, Json>)[key]).localeCompare(String((b as Record<string, Json>)[key]));

/** Lists the two servers may order differently, sorted (assets keep their stored order: both read it by position). */
function sortLists(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortLists);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    const sorted = sortLists(item);
    if (Array.isArray(sorted) && key !== 'assets') sorted.sort(byKey(key === 'placeholders' ? 'name' : key === 'translations' ? 'locale' : 'id'));
    out[key] = sorted;
  }
  return out;
}

/** A PostGraphile answer in the service's names and shapes. */
function fromPostGraphile(value: Json): Json {
  if (Array.isArray(value)) return value.map(fromPostGraphile);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key in LISTS) out[LISTS[key]!] = fromPostGraphile((item as { nodes: Json[] }).nodes);
    else if (key === 'isDefault') out.default = item;
    else if (key === 'rowId') out.id = item;
    else if (key === 'translations') {
      out.translations = Object.entries(item as Record<string, { name?: string }>).map(([locale, texts]) => ({ locale, name: texts.name ?? null }));
    } else out[key] = fromPostGraphile(item);
  }
  if ('host' in out && 'scheme' in out) {
    const { host, scheme, port, path, ...rest } = out as { host: string; scheme: 'http' | 'https'; port: number | null; path: string };
    return { name: host, url: siteUrl({ host, scheme, port, path }), ...rest };
  }
  return out;
}

/** Where two JSON values first differ, or undefined. */
function firstDifference(a: Json, b: Json, at = ''): string | undefined {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) {
    return `${at}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
  }
  if (a === null || typeof a !== 'object') return a === b ? undefined : `${at}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`;
  const keysA = Object.keys(a).sort();
  const keysB = Object.keys(b as object).sort();
  if (keysA.join() !== keysB.join()) return `${at}: keys ${keysA.join(',')} ≠ ${keysB.join(',')}`;
  for (const key of keysA) {
    const found = firstDifference((a as Record<string, Json>)[key]!, (b as Record<string, Json>)[key]!, `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}

async function ask(server: Server, query: string, variables: Record<string, string>, headers: Record<string, string>): Promise<Json> {
  const response = await fetch(`${server.base}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const answer = (await response.json()) as { data?: Json; errors?: unknown[] };
  if (!response.ok || answer.errors || !answer.data) throw new Error(`${server.name} failed the query: ${JSON.stringify(answer).slice(0, 800)}`);
  return answer.data;
}

/** Fails loudly unless both answer the same data; returns how many objects the answer holds. */
async function sameData(service: Server, postgraphile: Server, what: string, queries: { service: GraphqlLoad; postgraphile: GraphqlLoad }, pick: { service: (data: Json) => Json; postgraphile: (data: Json) => Json }) {
  const ours = sortLists(pick.service(await ask(service, queries.service.query, queries.service.variables, JSON_HEADERS)));
  const theirs = sortLists(fromPostGraphile(pick.postgraphile(await ask(postgraphile, queries.postgraphile.query, queries.postgraphile.variables, PG_HEADERS))));
  const difference = firstDifference(ours, theirs);
  if (difference) throw new Error(`the service and PostGraphile answer ${what} differently at ${difference}`);
  return JSON.stringify(ours).length;
}

// ── load ────────────────────────────────────────────────────────────────────

const PG_HEADERS = { 'content-type': 'application/json' };
type GraphqlLoad = { query: string; variables: Record<string, string> };

const graphqlLoad = (server: Server, { query, variables }: GraphqlLoad, headers: Record<string, string>): LoadInput => ({
  url: `${server.base}/graphql`,
  method: 'POST',
  headers,
  body: JSON.stringify({ query, variables }),
  connections: 8,
});

/** The whole-domain query of each server; the baseline's hand-written read answers the same data by REST. */
const wholeDomain = (domain: SeededDomain) => ({
  service: { query: SERVICE_WHOLE_DOMAIN, variables: { c: domain.clientId, d: domain.id } },
  postgraphile: { query: POSTGRAPHILE_WHOLE_DOMAIN, variables: { c: domain.clientId, d: domain.id } },
});

function requestOf(domainPath: string, loads: { service: GraphqlLoad; postgraphile?: GraphqlLoad }, baselineQuery = '') {
  return (server: Server): LoadInput => {
    if (server.name === 'service') return graphqlLoad(server, loads.service, JSON_HEADERS);
    if (server.name === 'PostGraphile') return graphqlLoad(server, loads.postgraphile!, PG_HEADERS);
    return { url: `${server.base}${domainPath}/whole${baselineQuery}`, headers: JSON_HEADERS, connections: 8 };
  };
}

/** ≥ 1.2× PostGraphile's requests/s with a lower p99. */
function aheadOfPostGraphile(what: string, row: Row) {
  const theirs = row.peer!.measured;
  addTarget({
    section: SECTION,
    target: `${what}: ≥ 1.2× PostGraphile’s requests/s with a lower p99`,
    measured: `${ratioText(row.ratio)}, p99 ${fmt(row.service.p99)} ms against ${fmt(theirs.p99)} ms`,
    met: row.ratio!.median >= 1.2 && row.service.p99 < theirs.p99,
  });
}

/** A second client with 10 domains of 10 embeddings of 3 assets: a client's domains with their lists. */
async function listsClient(bench: Bench): Promise<string> {
  const { id } = (await bench.api('POST', '/client', { username: 'lists', emailAddress: 'lists@example.org', password: 'bench-password' })) as { id: string };
  for (let i = 0; i < 10; i++) await bench.seedDomain(id, `lists-${i}.example`, 10, 3);
  return id;
}

export async function graphql(bench: Bench): Promise<void> {
  const [service, baseline, postgraphile] = [await bench.service(), await bench.baseline(), await bench.postgraphile()];
  const statements: { service: number; postgraphile: number }[] = [];

  for (const size of [10, 100, 1000]) {
    const domain = await bench.domainOfSize(size);
    const loads = wholeDomain(domain);
    await sameData(service, postgraphile, `the whole domain of ${size} embeddings`, loads, {
      service: (data) => (data as { domain: Json }).domain,
      postgraphile: (data) => {
        const nodes = (data as { allDomains: { nodes: Json[] } }).allDomains.nodes;
        if (nodes.length !== 1) throw new Error(`PostGraphile found ${nodes.length} domains`);
        return nodes[0]!;
      },
    });
    const [, vsPostGraphile] = await compare(SECTION, `GraphQL whole domain, ${size} embeddings (8 connections)`, [service, baseline, postgraphile], requestOf(domain.path, loads));
    aheadOfPostGraphile(`whole-domain query, ${size} embeddings`, vsPostGraphile!);
    statements.push({ service: vsPostGraphile!.service.statements, postgraphile: vsPostGraphile!.peer!.measured.statements });
  }

  // The same query with every locale's texts: against the baseline (one statement more there too).
  const small = await bench.domainOfSize(10);
  const localeLoad = { query: WITH_LOCALES, variables: { c: small.clientId, d: small.id } };
  const probed = (await ask(service, localeLoad.query, localeLoad.variables, JSON_HEADERS)) as { domain?: { localeTexts?: unknown[] } };
  if (probed.domain?.localeTexts?.length !== 2) throw new Error(`the whole-domain query with locales answers ${JSON.stringify(probed).slice(0, 300)}`);
  await compare(SECTION, 'GraphQL whole domain with 2 locales, 10 embeddings (8 connections)', [service, baseline], requestOf(small.path, { service: localeLoad }, '?locales'));

  // A client's domains with their lists.
  const clientId = await listsClient(bench);
  const lists = {
    service: { query: SERVICE_CLIENT_LISTS, variables: { c: clientId } },
    postgraphile: { query: POSTGRAPHILE_CLIENT_LISTS, variables: { c: clientId } },
  };
  await sameData(service, postgraphile, 'a client’s domains with their lists', lists, {
    service: (data) => (data as { client: Json }).client,
    postgraphile: (data) => (data as { clientByRowId: Json }).clientByRowId,
  });
  const [clientRow] = await compare(SECTION, 'GraphQL a client’s 10 domains with placeholders, themes, embeddings and assets (8 connections)', [service, postgraphile], requestOf('', lists));
  aheadOfPostGraphile('a client’s domains with their lists', clientRow!);
  statements.push({ service: clientRow!.service.statements, postgraphile: clientRow!.peer!.measured.statements });

  addTarget({
    section: SECTION,
    target: 'GraphQL in as few statements as PostGraphile (whole domain at 10 / 100 / 1,000 embeddings; a client’s domains)',
    measured: `service ${statements.map((s) => fmt(s.service, 0)).join(' / ')}, PostGraphile ${statements.map((s) => fmt(s.postgraphile, 0)).join(' / ')}`,
    met: statements.every((s) => s.service <= s.postgraphile),
  });
}
