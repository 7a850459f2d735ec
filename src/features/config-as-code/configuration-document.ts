import { z } from 'zod';
import { toProblems } from '../../kernel/contract/validate.ts';
import { parseSiteAddress } from '../../kernel/contract/site-address.ts';
import type { FieldProblem } from '../../kernel/errors.ts';
import { clientUpdate } from '../clients/client.contract.ts';
import { domainCreate } from '../domains/domain.contract.ts';
import { embeddingCreate } from '../embeddings/embedding.contract.ts';
import { localeCreate } from '../locales/locale.contract.ts';
import { placeholderReplaceAll } from '../placeholders/placeholder.contract.ts';
import { themeCreate } from '../themes/theme.contract.ts';
import { webhookInput } from '../permanent-scan/webhook.contract.ts';

/**
 * Configuration as code: a domain (or a client with its domains) as one document, which
 * `consent-config export` writes and `consent-config import` reads, as JSON or YAML.
 *
 * The document carries the configuration in the REST API's own payloads (its field names, its
 * schemas), without what only means something on one instance: no ids (embeddings and themes
 * are matched by name, assets by name within their embedding, locales and placeholders by
 * name, domains by address), no counts, no secrets (API keys, passwords and the webhook's
 * signing secret are never in it). A field left out of an object is left as it is by an
 * import (a new object gets its default); a section left out (`themes`, …) is left alone.
 */

/** The format this service writes and reads; a document of a later format is refused. */
export const DOCUMENT_VERSION = 1;

export const DOCUMENT_KINDS = ['domain', 'client'] as const;

/** A client's settings: its payload without the password, which is never exported and would make no import idempotent. */
const clientSettings = clientUpdate.omit({ password: true, passwordHash: true }).extend({
  username: clientUpdate.shape.username.unwrap(),
  emailAddress: clientUpdate.shape.emailAddress.unwrap(),
});

const domainParts = {
  settings: domainCreate,
  placeholders: placeholderReplaceAll.optional(),
  embeddings: z.array(embeddingCreate).optional(),
  themes: z.array(themeCreate).optional(),
  locales: z.array(localeCreate).optional(),
};

type DomainParts = z.output<z.ZodObject<typeof domainParts>>;

/** A domain's configuration: its settings and what it holds. */
export const domainConfiguration = z.strictObject(domainParts).superRefine((parts, ctx) => checkDomain(parts, [], ctx));

export const domainDocument = z
  .strictObject({ kind: z.literal('domain'), version: z.literal(DOCUMENT_VERSION), ...domainParts })
  .superRefine((parts, ctx) => checkDomain(parts, [], ctx));

export const clientDocument = z
  .strictObject({
    kind: z.literal('client'),
    version: z.literal(DOCUMENT_VERSION),
    settings: clientSettings,
    webhook: webhookInput.pick({ url: true }).nullable().optional(),
    domains: z.array(z.strictObject(domainParts)).optional(),
  })
  .superRefine((document, ctx) => {
    const addresses = new Map<string, number>();
    (document.domains ?? []).forEach((domain, index) => {
      checkDomain(domain, ['domains', index], ctx);
      const address = addressOf(domain.settings);
      const first = addresses.get(address);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['domains', index, 'settings', 'name'], message: `repeats the domain of /domains/${first}` });
      else addresses.set(address, index);
    });
  });

export type DomainConfiguration = DomainParts;
export type DomainDocument = z.output<typeof domainDocument>;
export type ClientDocument = z.output<typeof clientDocument>;
export type ConfigurationDocument = DomainDocument | ClientDocument;
export type ClientSettings = z.output<typeof clientSettings>;

/**
 * The address a domain's settings stand for: its `url` when the document has one (what an export
 * writes: scheme, port and path included), else its `name`.
 */
export const addressOf = (settings: DomainParts['settings']): string => (typeof settings.url === 'string' ? settings.url : settings.name);

type Path = (string | number)[];

/** What the field schemas cannot see: names that must be unique, one default theme, an address that agrees with itself. */
function checkDomain(parts: DomainParts, at: Path, ctx: z.RefinementCtx): void {
  const { settings } = parts;
  if (settings.url !== undefined) {
    const url = typeof settings.url === 'string' ? parseSiteAddress(settings.url) : { problem: 'must be a string' };
    const name = parseSiteAddress(settings.name);
    if ('problem' in url) {
      ctx.addIssue({ code: 'custom', path: [...at, 'settings', 'url'], message: url.problem });
    } else if (!('problem' in name) && (name.host !== url.host || (name.hasPath && name.path !== url.path))) {
      ctx.addIssue({ code: 'custom', path: [...at, 'settings', 'url'], message: `does not agree with name "${settings.name}": change both, or leave url out` });
    } else if (settings.path !== undefined && settings.path !== url.path) {
      ctx.addIssue({ code: 'custom', path: [...at, 'settings', 'path'], message: `does not agree with url "${settings.url as string}": change both, or leave path out` });
    }
  }
  const localeIndex = new Map<string, number>();
  (parts.locales ?? []).forEach((locale, index) => {
    if (localeIndex.has(locale.name)) ctx.addIssue({ code: 'custom', path: [...at, 'locales', index, 'name'], message: `repeats the locale "${locale.name}"` });
    localeIndex.set(locale.name, index);
    // The domain's `locales` says which locales are active; a locale's own `active` may only repeat it.
    const listed = settings.locales?.includes(locale.name);
    if (listed !== undefined && locale.active !== undefined && locale.active !== listed) {
      ctx.addIssue({
        code: 'custom',
        path: [...at, 'locales', index, 'active'],
        message: `is ${locale.active} but settings.locales ${listed ? 'lists' : 'does not list'} "${locale.name}"`,
      });
    }
  });
  const defaults = (parts.themes ?? []).flatMap((theme, index) => (theme.default === true ? [index] : []));
  for (const index of defaults.slice(1)) {
    ctx.addIssue({ code: 'custom', path: [...at, 'themes', index, 'default'], message: `a domain has one default theme; /themes/${defaults[0]} is the default already` });
  }
}

export type DocumentProblem = FieldProblem;

/**
 * Reads a parsed file as a document, or says what is wrong with it: every problem with its JSON
 * pointer into the document. The kind and version are checked first, so a document of another
 * kind or a later version is told so in one problem.
 */
export function readConfigurationDocument(value: unknown): { document: ConfigurationDocument } | { problems: DocumentProblem[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problems: [{ path: '', message: 'must be a mapping with `kind` and `version` (an export of consent-config)' }] };
  }
  const { kind, version } = value as { kind?: unknown; version?: unknown };
  if (!DOCUMENT_KINDS.includes(kind as never)) return { problems: [{ path: '/kind', message: `must be ${DOCUMENT_KINDS.map((name) => `"${name}"`).join(' or ')}` }] };
  if (version !== DOCUMENT_VERSION) {
    const later = typeof version === 'number' && version > DOCUMENT_VERSION;
    return {
      problems: [{ path: '/version', message: later ? `is ${version}: this consent-config reads version ${DOCUMENT_VERSION}; use a later one` : `must be ${DOCUMENT_VERSION}` }],
    };
  }
  const result = kind === 'domain' ? domainDocument.safeParse(value) : clientDocument.safeParse(value);
  if (!result.success) return { problems: toProblems(result.error.issues) };
  return { document: result.data };
}
