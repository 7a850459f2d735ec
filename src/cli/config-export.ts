import { exportClient, exportDomain } from '../features/config-as-code/configuration-export.ts';
import { withAdminContext } from './database.ts';
import { type DocumentFormat, documentText, formatOfFile, writeWhole } from './document-file.ts';
import { type Output, stdio } from './output.ts';

export type ExportOptions = { format?: DocumentFormat; out?: string };

/** The format asked for, else the one of the file written to (`.json`: JSON), else YAML. */
const formatOf = (options: ExportOptions): DocumentFormat => options.format ?? (options.out ? formatOfFile(options.out) : 'yaml');

async function write(document: object, title: string, options: ExportOptions, output: Output): Promise<void> {
  const text = documentText(document, formatOf(options), title);
  if (!options.out) {
    output.out(text);
    return;
  }
  await writeWhole(options.out, text);
  output.err(`${title}: written to ${options.out}\n`);
}

/** `export domain <clientId> <domainId>`: the domain's configuration as a document (configuration-export.ts). */
export async function exportDomainCommand(clientId: string, domainId: string, options: ExportOptions, output: Output = stdio): Promise<void> {
  const document = await withAdminContext((ctx) => exportDomain(ctx, { clientId, domainId }));
  await write(document, `consent-config export of domain ${document.settings.url}`, options, output);
}

/** `export client <clientId>`: the client's settings, its webhook's address and all its domains. */
export async function exportClientCommand(clientId: string, options: ExportOptions, output: Output = stdio): Promise<void> {
  const document = await withAdminContext((ctx) => exportClient(ctx, { clientId }));
  await write(document, `consent-config export of client ${String(document.settings.username)}`, options, output);
}
