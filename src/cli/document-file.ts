import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Document, parseDocument } from 'yaml';
import { type ConfigurationDocument, readConfigurationDocument } from '../features/config-as-code/configuration-document.ts';
import { CliError, usageError } from './errors.ts';

/** The files of configuration as code (src/features/config-as-code/): JSON or YAML, read and written. */

export const DOCUMENT_FORMATS = ['yaml', 'json'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** A file's format by its name: `.json` is JSON, anything else YAML (which reads JSON too). */
export const formatOfFile = (file: string): DocumentFormat => (extname(file).toLowerCase() === '.json' ? 'json' : 'yaml');

const NOT_EXPORTED =
  'Not exported: ids (objects are matched by name, domains by address), API keys, passwords, the webhook signing secret; ' +
  'consent records, revisions and scan results are data, not configuration.';

/** The document as text: YAML with a comment saying what it lacks, or JSON (two-space indents); a final newline. */
export function documentText(document: object, format: DocumentFormat, title: string): string {
  if (format === 'json') return `${JSON.stringify(document, null, 2)}\n`;
  const yaml = new Document(document);
  yaml.commentBefore = ` ${title}\n ${NOT_EXPORTED}\n Import: consent-config import <file> (shows the changes; --yes applies them).`;
  return yaml.toString({ lineWidth: 0 });
}

/** Writes `text` to `file` whole or not at all (written aside, then renamed). */
export async function writeWhole(file: string, text: string): Promise<void> {
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeFile(partial, text, { mode: 0o600 });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** Where a YAML error is: `line 3, column 5: …`. */
function yamlProblem(error: { message: string; linePos?: [{ line: number; col: number }, ...unknown[]] }): string {
  const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const at = error.linePos?.[0];
  return at ? `line ${at.line}, column ${at.col}: ${message}` : message;
}

/**
 * Reads a document: the file's text (a failure to read it: exit 1), parsed as JSON (`.json`) or
 * YAML, then checked against the document's schema. A file that is not a valid document is a
 * usage error (exit 2) in one line, naming the place in the document: `file: /embeddings/3/purpose: …`.
 */
export async function readDocumentFile(file: string): Promise<ConfigurationDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  if (formatOfFile(file) === 'json') {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw usageError(`${file}: not JSON: ${(error as Error).message}`);
    }
  } else {
    const parsed = parseDocument(text, { prettyErrors: true });
    const [error] = parsed.errors;
    if (error) throw usageError(`${file}: not YAML: ${yamlProblem(error)}`);
    value = parsed.toJS();
  }
  const read = readConfigurationDocument(value);
  if ('problems' in read) {
    const [first, ...more] = read.problems;
    const rest = more.length === 0 ? '' : ` (and ${more.length} more ${more.length === 1 ? 'problem' : 'problems'})`;
    throw usageError(`${file}: ${first!.path || '/'}: ${first!.message}${rest}`);
  }
  return read.document;
}
