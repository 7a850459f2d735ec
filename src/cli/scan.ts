import { loadSettings } from '../config.ts';
import type { AvailablePreset } from '../features/onboarding/onboarding.contract.ts';
import { builtinCatalog } from '../features/catalog/catalog.ts';
import { recogniseServices } from '../features/onboarding/recognise.ts';
import { scannerFromSettings } from '../scanner/index.ts';
import { ScanError, type ScanFindings } from '../scanner/scan.ts';
import { type Output, stdio } from './output.ts';
import { CliError, usageError } from './errors.ts';

export type ScanCommandOptions = { format: 'json' | 'table'; pages?: number; allowPrivate?: boolean };

export type ScanReport = ScanFindings & { knownServices: AvailablePreset[] };

/**
 * `scan <url>`: runs the scanner here (no service, no database), one progress line per visited
 * page on stderr, then the findings and the services the built-in catalog recognises in them on
 * stdout, as JSON or as a table.
 */
export async function scanCommand(url: string, options: ScanCommandOptions, output: Output = stdio): Promise<void> {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw usageError(`invalid <url>: must be an absolute http(s) URL, got "${url}"`);
  }
  const settings = loadSettings();
  const scanner = scannerFromSettings({
    ...settings.scan,
    pageLimit: options.pages ?? settings.scan.pageLimit,
    allowPrivateAddresses: options.allowPrivate === true || settings.scan.allowPrivateAddresses,
  });
  let findings: ScanFindings;
  try {
    findings = await scanner.scan(url, {
      onPage: (page, index, limit) =>
        output.err(`page ${index}/${limit} ${page.url} ${page.status ?? 'failed'}${page.error ? ` (${oneLine(page.error)})` : ''}\n`),
    });
  } catch (error) {
    if (error instanceof ScanError) {
      const hint = error.failure === 'refused' && !options.allowPrivate ? ' (for a local site use --allow-private)' : '';
      throw new CliError(`scan failed: ${oneLine(error.message)}${hint}`, 1, { cause: error });
    }
    throw error;
  } finally {
    await scanner.close();
  }
  const report: ScanReport = { ...findings, knownServices: recogniseServices(builtinCatalog(), findings) };
  output.out(options.format === 'table' ? formatTable(report) : `${JSON.stringify(report, null, 2)}\n`);
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Columns padded to their widest cell. */
function table(header: string[], rows: string[][]): string {
  if (rows.length === 0) return '  (none)\n';
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => `  ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()}\n`;
  return line(header) + line(widths.map((width) => '-'.repeat(width))) + rows.map(line).join('');
}

function formatTable(report: ScanReport): string {
  const { address } = report;
  const addressText = [address.company, address.street, [address.zipCode, address.city].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const storage = [
    ...report.localStorage.map((key) => ['localStorage', key.name, key.origin]),
    ...report.sessionStorage.map((key) => ['sessionStorage', key.name, key.origin]),
  ];
  return [
    `Scan of ${report.url}: ${report.pages.length} page${report.pages.length === 1 ? '' : 's'} in ${(report.durationMs / 1000).toFixed(1)} s\n`,
    `\nPages (${report.pages.length})\n`,
    table(
      ['STATUS', 'URL'],
      report.pages.map((page) => [page.status === null ? 'failed' : String(page.status), page.url + (page.error ? ` (${oneLine(page.error)})` : '')]),
    ),
    `\nCookies (${report.cookies.length})\n`,
    table(
      ['NAME', 'DOMAIN', 'PARTY', 'EXPIRES'],
      report.cookies.map((cookie) => [cookie.name, cookie.domain, cookie.party, cookie.expires ?? 'session']),
    ),
    `\nStorage keys (${storage.length})\n`,
    table(['STORAGE', 'NAME', 'ORIGIN'], storage),
    `\nImprint:         ${report.imprintUrl ?? '-'}\n`,
    `Privacy policy:  ${report.privacyPolicyUrl ?? '-'}\n`,
    `Address:         ${addressText || '-'}\n`,
    `\nKnown services (${report.knownServices.length})\n`,
    table(
      ['ID', 'NAME', 'VENDOR', 'FOUND BY'],
      report.knownServices.map((service) => [
        String(service.id),
        service.name,
        service.vendor,
        service.evidence.map((e) => `${e.kind} ${e.value}`).join(', '),
      ]),
    ),
    report.refusedRequests.length > 0 ? `\nRefused requests: ${report.refusedRequests.length} (non-public addresses)\n` : '',
  ].join('');
}
