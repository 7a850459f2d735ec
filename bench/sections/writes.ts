/**
 * Writes, service vs the honest baseline (bench/baseline-server.ts: validation, ownership check,
 * the domain's lock): a create with assets one at a time, concurrent creates, updates and
 * deletes of embeddings, bulk replaces of placeholders one at a time and 8 at once on one
 * domain, and a mixed load of 6 reads to 4 writes. Each server writes to domains of its own,
 * seeded alike, so neither works on what the other grew.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AUTH, type Bench, JSON_HEADERS, type SeededDomain, seedAssets } from '../lib/bench.ts';
import { compare, compareOneAtATime, SETTINGS, type Server, type Step } from '../lib/measure.ts';
import { addTarget, ratioText, type Row } from '../lib/report.ts';
import { fmt } from '../lib/stats.ts';

const SECTION = 'writes';

/** One-at-a-time requests per server and round: a round's ratio is of their medians, which 6 requests left to chance. */
const ONE_AT_A_TIME_PER_ROUND = 20;

/** A domain per server, seeded alike through the service: `label-service.example`, `label-baseline.example`. */
async function domainsOf(bench: Bench, servers: Server[], label: string, embeddings: number): Promise<Map<Server, SeededDomain>> {
  const clientId = await bench.client();
  const domains = new Map<Server, SeededDomain>();
  for (const server of servers) domains.set(server, await bench.seedDomain(clientId, `${label}-${server.name}.example`, embeddings));
  return domains;
}

/** ≥ 0.5× the baseline (median of the rounds), the spread shown. */
function halfTheBaseline(what: string, row: Row) {
  addTarget({
    section: SECTION,
    target: `${what} ≥ 0.5× the baseline (which validates, checks ownership and locks as the service does)`,
    measured: `${ratioText(row.ratio)}, ${fmt(row.service.statements, 1)} statements against ${fmt(row.peer!.measured.statements, 1)}`,
    met: row.ratio!.median >= 0.5,
    why: 'the baseline keeps no revisions. Each of the service’s writes is answered once its domain’s revision round has read what it records, after the round before it has stored (writes that commit meanwhile share a round, hence fewer than two statements per request); a round costs the service and the database CPU on a machine the load generator shares, and more in a larger domain: past 64 embeddings a round rebuilds and hashes, per embedding added or removed, one of 64 buckets of the manifest (stored as its change to the bucket before), so its cost grows with the domain, which the baseline’s does not. Answered as soon as they commit, writes ran some 16 % faster, but then a client’s next write can fall into the revision of the one before, which the history must not allow. The writers of one domain queue on its row lock, each holding it through its commit’s WAL flush',
  });
}

/** Why a write takes more statements than the target: `own` says how many are its own. */
const REVISION_ROUND = (own: string) =>
  `the write's own statements are ${own}; the other two are its domain's revision round, recorded just after the commit (read the due rows with what they changed, then store the revision), which the writes that commit while a round runs share`;

function noFailures(what: string, row: Row) {
  addTarget({
    section: SECTION,
    target: `${what}: no answer but 2xx from either server`,
    measured: `service ${fmt(row.service.non2xx! * 100, 1)}%, baseline ${fmt(row.peer!.measured.non2xx! * 100, 1)}% non-2xx`,
    met: row.service.non2xx === 0 && row.peer!.measured.non2xx === 0,
  });
}

async function createdIds(bench: Bench, domain: SeededDomain): Promise<string[]> {
  const all = (await bench.api('GET', `${domain.path.replace('/hosting/api', '')}/embedding`)) as { id: string; name: string }[];
  return all.filter((embedding) => embedding.name === 'Created').map((embedding) => embedding.id);
}

export async function writes(bench: Bench): Promise<void> {
  const servers = [await bench.service(), await bench.baseline()];

  // One create at a time in a domain of ordinary size (10 embeddings): what an operator's click costs, the service's revision included.
  const ordinary = await domainsOf(bench, servers, 'ordinary', 10);
  const createBody = JSON.stringify({ name: 'One more', purpose: 'cdcbd7c', assets: seedAssets(3) });
  const [oneCreate] = await compareOneAtATime(
    SECTION,
    'REST create embedding with 3 assets in a 10-embedding domain (one at a time)',
    servers,
    (server) => fetch(`${server.base}${ordinary.get(server)!.path}/embedding`, { method: 'POST', headers: JSON_HEADERS, body: createBody }),
    ONE_AT_A_TIME_PER_ROUND,
  );
  addTarget({
    section: SECTION,
    target: 'a create with assets in ≤ 4 statements',
    measured: `${fmt(oneCreate!.service.statements, 1)} (baseline ${fmt(oneCreate!.peer!.measured.statements, 1)})`,
    met: oneCreate!.service.statements <= 4,
    why: `${REVISION_ROUND('one (the domain checked and locked, the rows inserted, the revision noted as due)')}`,
  });

  // Many writers at once: creates, then updates of one embedding, then deletes of what was created. Each round of
  // creates (and the warm-up) writes to a domain of its own, seeded alike with 10 embeddings, so that every round
  // measures the same: in one domain, each round would start where the one before left off (a write's revision
  // costs more in a larger domain; the baseline's does not), and the figure would depend on how many rounds ran.
  const createDomains = new Map<Server, SeededDomain[]>();
  const clientId = await bench.client();
  for (const server of servers) {
    const list: SeededDomain[] = [];
    for (let round = -1; round < SETTINGS.maxRounds; round++) list.push(await bench.seedDomain(clientId, `creates-${round + 1}-${server.name}.example`, 10));
    createDomains.set(server, list);
  }
  const [create] = await compare(SECTION, 'REST create embedding (16 connections; a domain of 10 embeddings per round)', servers, (server, round) => ({
    url: `${server.base}${createDomains.get(server)![round + 1]!.path}/embedding`,
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: 'Created', purpose: 'cdcbd7c' }),
    connections: 16,
  }));
  halfTheBaseline('REST create embedding', create!);
  const domains = await domainsOf(bench, servers, 'writes', 10);
  const [update] = await compare(SECTION, 'REST update embedding (16 connections)', servers, (server) => ({
    url: `${server.base}${domains.get(server)!.path}/embedding/${domains.get(server)!.embeddingId}`,
    method: 'PUT',
    headers: JSON_HEADERS,
    body: JSON.stringify({ name: 'Updated' }),
    connections: 16,
  }));
  halfTheBaseline('REST update embedding', update!);
  const [remove] = await deletes(bench, servers, createDomains, create!.ratio!.rounds + 1);
  halfTheBaseline('REST delete embedding', remove!);

  await bulkReplaces(bench, servers);
  await mixed(bench, servers);
}

/**
 * Deletes of the embeddings each server created, the same number per round from both: round r
 * deletes in the domain the creates' warm-up or round wrote to (`written` of them, in turn), so
 * a round deletes from a domain of a few thousand embeddings, as the creates left it.
 */
async function deletes(bench: Bench, servers: Server[], domains: Map<Server, SeededDomain[]>, written: number): Promise<Row[]> {
  const ids = new Map<Server, string[][]>();
  for (const server of servers) {
    const lists: string[][] = [];
    for (const domain of domains.get(server)!.slice(0, written)) lists.push(await createdIds(bench, domain));
    ids.set(server, lists);
  }
  // Enough for the most rounds a scenario may run: each domain gives as many rounds' deletes as it must.
  const slices = Math.ceil(SETTINGS.maxRounds / written);
  const amount = Math.min(3000, ...[...ids.values()].flat().map((list) => Math.floor(list.length / slices)));
  if (amount < 16) throw new Error(`too few created embeddings to delete (${amount} per round)`);
  for (const server of servers) {
    for (let round = 0; round < SETTINGS.maxRounds; round++) {
      const domain = round % written;
      const slice = ids.get(server)![domain]!.slice(Math.floor(round / written) * amount, (Math.floor(round / written) + 1) * amount);
      const path = domains.get(server)![domain]!.path;
      await writeFile(join(bench.workDir, `${server.name}-deletes-${round}.json`), JSON.stringify(slice.map((id) => `${path}/embedding/${id}`)));
    }
  }
  return compare(SECTION, `REST delete embedding (16 connections, ${amount} deletes per round)`, servers, (server, round) => ({
    url: server.base,
    method: 'DELETE',
    headers: AUTH,
    connections: 16,
    amount,
    pathsFile: join(bench.workDir, `${server.name}-deletes-${round}.json`),
  }));
}

const placeholders = (count: number) => JSON.stringify(Array.from({ length: count }, (_, i) => ({ name: `item_${i}`, value: `value ${i}` })));

/** Bulk replaces of 10, 100 and 1,000 placeholders one at a time; then 8 replaces of 100 at once, on one domain. */
async function bulkReplaces(bench: Bench, servers: Server[]) {
  const domains = await domainsOf(bench, servers, 'placeholders', 10);
  let hundred: Row | undefined;
  for (const count of [10, 100, 1000]) {
    const body = placeholders(count);
    const [row] = await compareOneAtATime(SECTION, `bulk replace of ${count} placeholders (one at a time)`, servers, (server) =>
      fetch(`${server.base}${domains.get(server)!.path}/placeholder`, { method: 'PUT', headers: JSON_HEADERS, body }),
      ONE_AT_A_TIME_PER_ROUND,
    );
    if (count === 100) hundred = row;
    if (count === 1000) {
      addTarget({ section: SECTION, target: 'bulk replace of 1,000 placeholders ≤ 250 ms', measured: `p50 ${fmt(row!.service.p50)} ms, p99 ${fmt(row!.service.p99)} ms`, met: row!.service.p99 <= 250 });
    }
  }
  addTarget({
    section: SECTION,
    target: 'a bulk replace in ≤ 4 statements',
    measured: `${fmt(hundred!.service.statements, 1)} (baseline ${fmt(hundred!.peer!.measured.statements, 1)})`,
    met: hundred!.service.statements <= 4,
    why: `${REVISION_ROUND('one (the server function after_domain_lock locks the domain, then replaces the list with a snapshot taken after the lock)')}`,
  });

  // Concurrent replaces of one domain's placeholders: each must wait for the one before it, none may fail.
  const body = placeholders(100);
  const [concurrent] = await compare(SECTION, 'bulk replace of 100 placeholders, 8 at once on one domain (8 connections)', servers, (server) => ({
    url: `${server.base}${domains.get(server)!.path}/placeholder`,
    method: 'PUT',
    headers: JSON_HEADERS,
    body,
    connections: 8,
  }));
  halfTheBaseline('bulk replace of 100 placeholders, 8 at once', concurrent!);
  noFailures('concurrent bulk replaces of one domain', concurrent!);
}

/**
 * 6 reads to 4 writes on one domain: each connection cycles through single reads, creates, an
 * update of the embedding it just created and an update of one all connections share.
 */
async function mixed(bench: Bench, servers: Server[]) {
  const domains = await domainsOf(bench, servers, 'mixed', 10);
  const sequence = (domain: SeededDomain): Step[] => {
    const read: Step = { method: 'GET', path: `${domain.path}/embedding/${domain.embeddingId}`, headers: AUTH };
    const create: Step = { method: 'POST', path: `${domain.path}/embedding`, headers: JSON_HEADERS, body: JSON.stringify({ name: 'Mixed', purpose: 'cdcbd7c', assets: seedAssets(3) }), capture: true };
    const updateCreated: Step = { method: 'PUT', path: `${domain.path}/embedding/:id`, headers: JSON_HEADERS, body: JSON.stringify({ name: 'Mixed, updated' }) };
    const updateShared: Step = { method: 'PUT', path: `${domain.path}/embedding/${domain.embeddingId}`, headers: JSON_HEADERS, body: JSON.stringify({ vendor: 'Mixed Ltd' }) };
    return [read, read, create, read, updateCreated, read, create, read, updateShared, read];
  };
  const [row] = await compare(SECTION, 'mixed load, 6 reads : 4 writes (creates and updates) of one domain’s embeddings (16 connections)', servers, (server) => ({
    url: server.base,
    connections: 16,
    sequence: sequence(domains.get(server)!),
  }));
  noFailures('mixed reads and writes', row!);
}
