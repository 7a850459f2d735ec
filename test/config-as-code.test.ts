import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as yamlText } from 'yaml';
import { openServiceDatabase } from '../src/app/database.ts';
import { freshTestDatabase } from './support/database.ts';
import { type Finished, runToEnd } from './support/run-to-end.ts';
import { seedConfiguration } from './support/seeded-configuration.ts';
import { startServiceProcess } from './support/service-process.ts';

/**
 * Configuration as code through the command line, as operators run it: a client configured on
 * one instance is exported (YAML and JSON), imported into another (a fresh DATA_DIR, or a fresh
 * database on the PostgreSQL server when DATABASE_URL is set), exported there again and compared;
 * a second import changes nothing and makes no revision; a changed file shows its diff first.
 */

const CLI = new URL('../bin/consent-config.ts', import.meta.url).pathname;
const ADMIN = 'config-as-code-admin-key-0123456789';

type Instance = { env: Record<string, string>; databaseUrl: string | undefined; dataDir: string; drop(): Promise<void> };

let workDir: string;
let source: Instance;
let target: Instance;
let sourceClient: { clientId: string; domainId: string };

async function instance(name: string): Promise<Instance> {
  const { databaseUrl, drop } = await freshTestDatabase();
  const dataDir = join(workDir, name);
  return { env: databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '', DATA_DIR: dataDir }, databaseUrl, dataDir, drop };
}

const cli = (on: Instance, args: string[]): Promise<Finished> =>
  runToEnd([CLI, ...args], { ...on.env, LOG_LEVEL: 'silent', DEBUG: '', ADMIN_API_KEY: '' }, { deadlineMs: 120_000 });

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

/** Revisions kept for the domains of a client (the embedded database is opened only between commands). */
async function revisionCount(on: Instance, clientId: string): Promise<number> {
  const database = await openServiceDatabase({ databaseUrl: on.databaseUrl, dataDir: on.dataDir, poolSize: 1 });
  try {
    const [row] = await database.orm.em
      .fork()
      .execute<{ count: number }[]>(`select count(*)::int as "count" from "configuration_revision" r join "domain" d on d."id" = r."domain_id" where d."client_id" = ?`, [clientId]);
    return row!.count;
  } finally {
    await database.close();
  }
}

async function exported(on: Instance, args: string[]): Promise<string> {
  const result = await cli(on, ['export', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'config-as-code-'));
  source = await instance('source');
  target = await instance('target');
  const service = await startServiceProcess({ env: { ...source.env, ADMIN_API_KEY: ADMIN, LOG_LEVEL: 'warn', NODE_ENV: 'test' } });
  try {
    expect(service.ready, service.output().stderr).toBe(true);
    sourceClient = await seedConfiguration(service.request);
  } finally {
    await service.stop();
  }
}, 120_000);

afterAll(async () => {
  await source?.drop();
  await target?.drop();
  await rm(workDir, { recursive: true, force: true });
});

describe('export', () => {
  it('writes a client as YAML: its settings, the webhook address, the domain with everything it holds; no ids, no secrets', async () => {
    const text = await exported(source, ['client', sourceClient.clientId]);
    expect(text).toMatch(/^# consent-config export of client acme\n# Not exported: ids/);
    const document = parseYaml(text);
    expect(document).toMatchObject({ kind: 'client', version: 1, settings: { username: 'acme', company: 'ACME GmbH', features: { canUseABTests: false } } });
    expect(document.webhook).toEqual({ url: 'https://hooks.acme.example/findings' });
    expect(document.settings).not.toHaveProperty('id');
    expect(document.settings).not.toHaveProperty('domainCount');
    const [domain] = document.domains;
    expect(domain.settings).toMatchObject({ name: 'www.acme.example', path: '/shop/', url: 'https://www.acme.example/shop/', consentCookieLifetime: 180 });
    expect(domain.embeddings.map((embedding: { name: string; active: boolean }) => [embedding.name, embedding.active])).toEqual([
      ['Matomo', false],
      ['Matomo', true],
      ['YouTube', true],
    ]);
    expect(domain.embeddings[2].assets.map((asset: { name: string }) => asset.name)).toEqual(['VISITOR_INFO1_LIVE', 'YSC']);
    expect(domain.themes.map((theme: { name: string; default: boolean }) => [theme.name, theme.default])).toEqual([
      ['Corporate', true],
      ['Dark', false],
    ]);
    expect(domain.locales.map((locale: { name: string; active: boolean }) => [locale.name, locale.active])).toEqual([
      ['de_DE', true],
      ['en_US', true],
      ['fr', false],
    ]);
    expect(domain.placeholders).toEqual([
      { name: 'Firma', value: 'ACME GmbH' },
      { name: 'Firma_Datenschutz', value: 'https://www.acme.example/datenschutz' },
    ]);
    // No id of this instance anywhere, and no secret.
    const body = text.replace(/^#.*\n/gm, '');
    expect(body).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(body).not.toMatch(/whsec_|password|secret/i);
    // The same configuration exports the same text.
    expect(await exported(source, ['client', sourceClient.clientId])).toBe(text);
  }, 60_000);

  it('writes a domain as JSON with --out (by the file name), and refuses an unknown domain with exit code 1', async () => {
    const file = join(workDir, 'domain.json');
    const result = await cli(source, ['export', 'domain', sourceClient.clientId, sourceClient.domainId, '--out', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`written to ${file}`);
    const document = JSON.parse(await readFile(file, 'utf8'));
    expect(document).toMatchObject({ kind: 'domain', version: 1, settings: { url: 'https://www.acme.example/shop/' } });
    expect(document.embeddings).toHaveLength(3);

    const missing = await cli(source, ['export', 'domain', sourceClient.clientId, '0190c6a0-0000-7000-8000-000000000000']);
    expect(missing.code).toBe(1);
    expect(lines(missing.stderr)).toEqual(['error: domain 0190c6a0-0000-7000-8000-000000000000 not found']);
  }, 60_000);
});

describe('import', () => {
  let clientFile: string;
  let targetClientId: string;

  it('shows what a client file would add to another instance, and writes nothing without --yes (exit code 3)', async () => {
    clientFile = join(workDir, 'client.yaml');
    await writeFile(clientFile, await exported(source, ['client', sourceClient.clientId]));
    const dry = await cli(target, ['import', clientFile]);
    expect(dry.code, dry.stderr).toBe(3);
    expect(lines(dry.stdout)).toEqual(
      expect.arrayContaining([
        'client acme (new)',
        '  + client acme',
        '  + webhook https://hooks.acme.example/findings',
        'domain https://www.acme.example/shop/ (new)',
        '  + domain https://www.acme.example/shop/',
        '  + embedding "YouTube"',
        '  + theme "Corporate"',
        '  + placeholder Firma',
        '  + locale fr',
      ]),
    );
    expect(dry.stdout).toMatch(/^\d+ changes: \d+ added, 0 changed, 0 removed$/m);
    expect(dry.stderr).toMatch(/nothing written: run again with --yes/);
    // Nothing was written: the client is still unknown there.
    const again = await cli(target, ['import', clientFile]);
    expect(again.code).toBe(3);
    expect(again.stdout).toContain('client acme (new)');
  }, 120_000);

  it('applies it with --yes, and the other instance then exports the same document', async () => {
    const applied = await cli(target, ['import', clientFile, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    const created = /^client acme created: ([0-9a-f-]{36})$/m.exec(applied.stdout);
    expect(created, applied.stdout).not.toBeNull();
    targetClientId = created![1]!;
    expect(applied.stdout).toMatch(/^webhook https:\/\/hooks\.acme\.example\/findings: its new signing secret \(shown this once\): whsec_/m);
    expect(applied.stdout).toMatch(/^applied \d+ changes$/m);
    expect(await exported(target, ['client', targetClientId])).toBe(await readFile(clientFile, 'utf8'));
  }, 180_000);

  it('changes nothing the second time: no changes, exit code 0, and no new revision', async () => {
    const revisions = await revisionCount(target, targetClientId);
    expect(revisions).toBeGreaterThan(0);
    for (const args of [[], ['--yes']]) {
      const result = await cli(target, ['import', clientFile, ...args]);
      expect(result.code, result.stderr).toBe(0);
      expect(lines(result.stdout)).toEqual(['no changes']);
    }
    expect(await revisionCount(target, targetClientId)).toBe(revisions);
  }, 120_000);

  it('shows the diff of a changed file per object and field, writes nothing without --yes, and applies exactly it with --yes', async () => {
    const document = parseYaml(await readFile(clientFile, 'utf8'));
    const domain = document.domains[0];
    domain.settings.consentCookieLifetime = 90;
    domain.embeddings.find((embedding: { name: string }) => embedding.name === 'YouTube').purpose = 'cdcbd7c';
    domain.embeddings.find((embedding: { name: string }) => embedding.name === 'YouTube').assets.pop();
    domain.embeddings = domain.embeddings.filter((embedding: { name: string; active: boolean }) => embedding.active);
    domain.embeddings.push({ name: 'Google Maps', purpose: '15c61c3', iframeMarkers: ['google.com/maps'] });
    domain.themes[1].windowBackgroundColor = '#222222';
    domain.placeholders = domain.placeholders.filter((placeholder: { name: string }) => placeholder.name !== 'Firma');
    domain.locales.find((locale: { name: string }) => locale.name === 'de_DE').widgetTitle = 'Datenschutz';
    const changedFile = join(workDir, 'changed.yaml');
    await writeFile(changedFile, yamlText(document));

    const revisions = await revisionCount(target, targetClientId);
    const before = await exported(target, ['client', targetClientId]);
    const dry = await cli(target, ['import', changedFile]);
    expect(dry.code, dry.stderr).toBe(3);
    expect(lines(dry.stdout)).toEqual([
      `domain https://www.acme.example/shop/ (${/\(([0-9a-f-]{36})\)/.exec(dry.stdout)![1]})`,
      '  ~ settings: consentCookieLifetime 180 → 90',
      '  - placeholder Firma',
      '  ~ theme "Dark": windowBackgroundColor "#111111" → "#222222"',
      '  - embedding "Matomo"',
      '  ~ embedding "YouTube": purpose "6cd2721" → "cdcbd7c"',
      '  ~ embedding "YouTube": assets: - cookie YSC',
      '  + embedding "Google Maps"',
      '  ~ locale de_DE: widgetTitle "Ihre Privatsphäre" → "Datenschutz"',
      '7 changes: 1 added, 4 changed, 2 removed',
    ]);
    expect(await revisionCount(target, targetClientId)).toBe(revisions);
    expect(await exported(target, ['client', targetClientId])).toBe(before);

    const applied = await cli(target, ['import', changedFile, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/^applied 7 changes$/m);
    expect(await revisionCount(target, targetClientId)).toBeGreaterThan(revisions);
    const after = parseYaml(await exported(target, ['client', targetClientId]));
    const afterDomain = after.domains[0];
    expect(afterDomain.settings.consentCookieLifetime).toBe(90);
    expect(afterDomain.embeddings.map((embedding: { name: string; purpose: string }) => [embedding.name, embedding.purpose])).toEqual([
      ['Google Maps', '15c61c3'],
      ['Matomo', 'a717ff5'],
      ['YouTube', 'cdcbd7c'],
    ]);
    expect(afterDomain.embeddings[2].assets.map((asset: { name: string }) => asset.name)).toEqual(['VISITOR_INFO1_LIVE']);
    expect(afterDomain.placeholders.map((placeholder: { name: string }) => placeholder.name)).toEqual(['Firma_Datenschutz']);
    expect(afterDomain.themes[1].windowBackgroundColor).toBe('#222222');
    const second = await cli(target, ['import', changedFile]);
    expect(lines(second.stdout)).toEqual(['no changes']);
  }, 240_000);

  it('imports a domain file (JSON) into a client: the same domain again changes nothing; into another client it makes the domain', async () => {
    const domainFile = join(workDir, 'domain.json');
    await writeFile(domainFile, await exported(source, ['domain', sourceClient.clientId, sourceClient.domainId, '--format', 'json']));

    const other = await cli(target, ['client', 'create', '--username', 'other', '--email', 'ops@other.example', '--password', 'other-password']);
    expect(other.code, other.stderr).toBe(0);
    const otherId = JSON.parse(other.stdout).id as string;
    const applied = await cli(target, ['import', domainFile, '--client', otherId, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('domain https://www.acme.example/shop/ (new)');
    const again = await cli(target, ['import', domainFile, '--client', otherId]);
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual(['no changes']);
    const otherExport = parseYaml(await exported(target, ['client', otherId]));
    const { kind: _kind, version: _version, ...sourceDomain } = JSON.parse(await readFile(domainFile, 'utf8'));
    expect(otherExport.domains).toEqual([sourceDomain]);
  }, 180_000);

  it('refuses a file that is not a valid document in one line naming the place, exit code 2, and writes nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['broken.yaml', 'kind: client\nversion: 1\nsettings: [unclosed\n', /^error: .*broken\.yaml: not YAML: line \d+, column \d+: /],
      ['broken.json', '{"kind": "domain",', /^error: .*broken\.json: not JSON: /],
      ['kind.yaml', 'kind: theme\nversion: 1\n', /^error: .*kind\.yaml: \/kind: must be "domain" or "client"$/],
      ['later.yaml', 'kind: domain\nversion: 2\nsettings: {name: a.example}\n', /^error: .*later\.yaml: \/version: is 2: this consent-config reads version 1; use a later one$/],
    ];
    const document = parseYaml(await readFile(clientFile, 'utf8'));
    document.domains[0].embeddings[1].purpose = 'marketing';
    cases.push(['purpose.yaml', yamlText(document), /^error: .*purpose\.yaml: \/domains\/0\/embeddings\/1\/purpose: must be one of the purpose ids .*$/]);
    const unknown = parseYaml(await readFile(clientFile, 'utf8'));
    unknown.domains[0].themes[0].colour = 'red';
    cases.push(['unknown.yaml', yamlText(unknown), /^error: .*unknown\.yaml: \/domains\/0\/themes\/0\/colour: is not a property of this payload$/]);
    const twoDefaults = parseYaml(await readFile(clientFile, 'utf8'));
    twoDefaults.domains[0].themes[1].default = true;
    cases.push(['defaults.yaml', yamlText(twoDefaults), /^error: .*defaults\.yaml: \/domains\/0\/themes\/1\/default: a domain has one default theme/]);
    const revisions = await revisionCount(target, targetClientId);
    for (const [name, text, pattern] of cases) {
      const file = join(workDir, name);
      await writeFile(file, text);
      const result = await cli(target, ['import', file, '--yes']);
      expect(result.code, `${name}: ${result.stderr}`).toBe(2);
      expect(lines(result.stderr), name).toHaveLength(1);
      expect(result.stderr.trim(), name).toMatch(pattern);
      expect(result.stdout, name).toBe('');
    }
    const domainFile = join(workDir, 'domain.json');
    const noClient = await cli(target, ['import', domainFile]);
    expect(noClient.code).toBe(2);
    expect(lines(noClient.stderr)).toEqual([`error: ${domainFile} holds a domain: name the client it goes into with --client <clientId>`]);
    const missingFile = await cli(target, ['import', join(workDir, 'nothing.yaml')]);
    expect(missingFile.code).toBe(1);
    expect(missingFile.stderr).toMatch(/^error: cannot read .*nothing\.yaml: ENOENT/);
    expect(await revisionCount(target, targetClientId)).toBe(revisions);
  }, 180_000);
});
