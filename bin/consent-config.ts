#!/usr/bin/env node
/**
 * The command line of the consent domain configuration service. Only wiring lives here; each
 * command is a module of src/cli/. Errors: one line on stderr, exit code 1 (failure) or 2 (usage).
 */
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { BackupOptions } from '../src/cli/backup.ts';
import type { ClientCreateOptions } from '../src/cli/client-create.ts';
import type { ExportOptions } from '../src/cli/config-export.ts';
import type { ImportOptions } from '../src/cli/config-import.ts';
import { reportFailure } from '../src/cli/errors.ts';
import type { KeyCreateOptions } from '../src/cli/key-create.ts';
import type { MigrateOptions } from '../src/cli/migrate.ts';
import type { ScanCommandOptions } from '../src/cli/scan.ts';
import type { ScanWorkerOptions } from '../src/cli/scan-worker.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const pageCount = (value: string): number => {
  const pages = Number(value);
  if (!/^\d+$/.test(value) || pages < 1 || pages > 100) throw new InvalidArgumentError('must be a whole number from 1 to 100.');
  return pages;
};

const scanConcurrency = (value: string): number => {
  const scans = Number(value);
  if (!/^\d+$/.test(value) || scans < 1 || scans > 64) throw new InvalidArgumentError('must be a whole number from 1 to 64.');
  return scans;
};

// Each command's module (and the database and browser code behind it) loads only when it runs.
const program = new Command('consent-config')
  .description('Consent domain configuration service: run it, migrate its database, scan websites, manage clients, keys, the catalog and the TCF vendors, export and import configurations, back up the embedded database.')
  .version(version)
  .exitOverride()
  .showSuggestionAfterError()
  .configureHelp({ showGlobalOptions: true });

program
  .command('serve')
  .description('start the service (as `npm start`): HTTP API on HOST:PORT until SIGTERM or SIGINT')
  .action(async () => (await import('../src/cli/serve.ts')).serve());

program
  .command('migrate')
  .description('apply pending migrations to the configured database (DATABASE_URL, else embedded PGlite in DATA_DIR)')
  .option('--status', 'list applied and pending migrations and change nothing; exit code 3 when some are pending')
  .option('--dry-run', 'print the SQL of the pending migrations and change nothing')
  .action(async (options: MigrateOptions) => (await import('../src/cli/migrate.ts')).migrate(options));

program
  .command('scan')
  .description('scan a website with headless Chromium (no service, no database): cookies, storage keys, legal pages, known services')
  .argument('<url>', 'the website, e.g. https://www.example.com/')
  .addOption(new Option('--format <format>', 'output format').choices(['json', 'table']).default('json'))
  .option('--pages <n>', 'pages to visit at most, 1–100 (default: SCAN_PAGE_LIMIT)', pageCount)
  .option('--allow-private', 'allow loopback and private addresses (local development and tests only)')
  .action(async (url: string, options: ScanCommandOptions) => (await import('../src/cli/scan.ts')).scanCommand(url, options));

program
  .command('scan-worker')
  .description('run queued scans in this process until SIGTERM or SIGINT (needs DATABASE_URL: the database the service runs on)')
  .option('--concurrency <n>', 'scans run at once, 1–64 (default: SCAN_MAX_CONCURRENT)', scanConcurrency)
  .action(async (options: ScanWorkerOptions) => (await import('../src/cli/scan-worker.ts')).scanWorker(options));

const catalog = program.command('catalog').description('the catalog of known services');
catalog
  .command('import')
  .description('import an Open Cookie Database CSV file into the catalog')
  .argument('<csv>', 'the CSV file')
  .action(async (file: string) => (await import('../src/cli/catalog-import.ts')).catalogImport(file));

const tcf = program.command('tcf').description('IAB TCF vendors, from the IAB Europe Global Vendor List');
tcf
  .command('import')
  .description(
    'import a Global Vendor List (vendor-list.json, format v3) downloaded from IAB Europe; replaces the stored TCF vendors, ' +
      'keeps the list by version, and has every domain with TCF publish its banner again from it',
  )
  .argument('<vendor-list.json>', 'the file')
  .action(async (file: string) => (await import('../src/cli/tcf-import.ts')).tcfImport(file));
tcf
  .command('import-translation')
  .description(
    "import IAB Europe's translation of the list's texts (purposes-xx.json: purposes, features, stacks, data categories) into one language; " +
      'domains with TCF and a locale in that language show it (the English texts otherwise)',
  )
  .argument('<language>', 'the two-letter ISO 639-1 code: de, fr, …')
  .argument('<purposes-xx.json>', 'the file')
  .action(async (language: string, file: string) => (await import('../src/cli/tcf-import.ts')).tcfImportTranslation(language, file));

const client = program.command('client').description('clients (customer accounts)');
client
  .command('create')
  .description('create a client; prints it as JSON')
  .requiredOption('--username <username>', 'login name, unique')
  .requiredOption('--email <address>', 'e-mail address')
  .option('--password <password>', 'password, stored as a bcrypt hash (this or --password-hash is required)')
  .option('--password-hash <hash>', 'a bcrypt hash ($2y$…) to store instead of hashing --password')
  .option('--first-name <name>', 'first name')
  .option('--last-name <name>', 'last name')
  .option('--company <name>', 'company')
  .option('--active', 'create it active (default: inactive)')
  .action(async (options: ClientCreateOptions) => (await import('../src/cli/client-create.ts')).clientCreateCommand(options));

const key = program.command('key').description('API keys of clients');
key
  .command('create')
  .description('create an API key for a client; prints the key (shown only this once)')
  .requiredOption('--client <id>', 'the client id')
  .requiredOption('--name <name>', 'what the key is for')
  .action(async (options: KeyCreateOptions) => (await import('../src/cli/key-create.ts')).keyCreateCommand(options));

// Configuration as code (src/features/config-as-code/) and backups of the embedded database.
const documentFormat = () =>
  new Option('--format <format>', 'json or yaml (default: by the name of --out, else yaml)').choices(['json', 'yaml']);
const exportCommand = program
  .command('export')
  .description('write a configuration as a JSON or YAML document for `import`: without ids, API keys, passwords or the webhook secret');
exportCommand
  .command('domain')
  .description("a domain's settings, placeholders, embeddings with their cookies, themes and locales")
  .argument('<clientId>', 'the client id')
  .argument('<domainId>', 'the domain id')
  .addOption(documentFormat())
  .option('--out <file>', 'write to the file (default: stdout)')
  .action(async (clientId: string, domainId: string, options: ExportOptions) =>
    (await import('../src/cli/config-export.ts')).exportDomainCommand(clientId, domainId, options));
exportCommand
  .command('client')
  .description("a client's settings, its webhook's address and all its domains")
  .argument('<clientId>', 'the client id')
  .addOption(documentFormat())
  .option('--out <file>', 'write to the file (default: stdout)')
  .action(async (clientId: string, options: ExportOptions) => (await import('../src/cli/config-export.ts')).exportClientCommand(clientId, options));

program
  .command('import')
  .description(
    'show what an exported document (JSON or YAML) would change here, and apply it with --yes through the API operations; ' +
      'exit code 0: nothing to change, 3: changes pending (nothing written), 2: the file is not a valid document',
  )
  .argument('<file>', 'the document (.json is read as JSON, anything else as YAML)')
  .option('--client <clientId>', "the client to import into (a domain's file needs it; a client's file: default the client with its username, else a new one)")
  .option('--domain <domainId>', "the domain to import a domain's file into (default: the client's domain with its address, else a new one)")
  .option('--yes', 'apply the changes')
  .action(async (file: string, options: ImportOptions) => (await import('../src/cli/config-import.ts')).importCommand(file, options));

program
  .command('backup')
  .description(
    'write a backup of the embedded database (a gzipped tar of DATA_DIR, consistent as of one moment): ' +
      'from the running service with --from, else from DATA_DIR when no service runs on it; on PostgreSQL use pg_dump',
  )
  .argument('<file>', 'the backup file to write, e.g. backup.tar.gz')
  .option('--from <url>', "the running service's address, e.g. http://127.0.0.1:4000 (needs ADMIN_API_KEY)")
  .action(async (file: string, options: BackupOptions) => (await import('../src/cli/backup.ts')).backupCommand(file, options));

program
  .command('restore')
  .description('restore a backup into DATA_DIR, which must be new or empty, while no service runs on it; the next start finds the data')
  .argument('<file>', 'the backup file')
  .action(async (file: string) => (await import('../src/cli/backup.ts')).restoreCommand(file));

try {
  await program.parseAsync();
} catch (error) {
  process.exitCode = reportFailure(error);
}
