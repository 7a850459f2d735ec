import { isDeepStrictEqual } from 'node:util';
import type { ClientScope, DomainScope } from '../../kernel/access.ts';
import { parseSiteAddress, siteUrl } from '../../kernel/contract/site-address.ts';
import type { RequestContext } from '../../kernel/context.ts';
import { conflict, ServiceError } from '../../kernel/errors.ts';
import type { Client, ClientCreate, ClientUpdate } from '../clients/client.contract.ts';
import { ClientEntity } from '../clients/client.entity.ts';
import { createClient, getClient, updateClient } from '../clients/client.operations.ts';
import type { Domain, DomainCreate, DomainUpdate } from '../domains/domain.contract.ts';
import { createDomain, getDomain, listDomains, updateDomain } from '../domains/domain.operations.ts';
import { assetDefaults, type AssetCreate } from '../embeddings/embedding-asset.contract.ts';
import type { Embedding, EmbeddingCreate, EmbeddingUpdate } from '../embeddings/embedding.contract.ts';
import { createEmbedding, deleteEmbedding, listEmbeddings, updateEmbedding } from '../embeddings/embedding.operations.ts';
import type { Locale, LocaleCreate, LocaleUpdate } from '../locales/locale.contract.ts';
import { createLocale, deleteLocale, listLocales, updateLocale } from '../locales/locale.operations.ts';
import { deleteWebhook, getWebhook, setWebhook } from '../permanent-scan/permanent-scan.operations.ts';
import type { Placeholder } from '../placeholders/placeholder.contract.ts';
import { listPlaceholders, replacePlaceholders } from '../placeholders/placeholder.operations.ts';
import type { Theme, ThemeCreate, ThemeUpdate } from '../themes/theme.contract.ts';
import { createTheme, deleteTheme, listThemes, updateTheme } from '../themes/theme.operations.ts';
import {
  addressOf,
  type ClientDocument,
  type ConfigurationDocument,
  type DomainConfiguration,
} from './configuration-document.ts';
import { byNameThenContent, byText } from './configuration-export.ts';

/**
 * An import: what a document would change on this instance (added, changed, removed, per object
 * and field), worked out before anything is written, and how to apply it. Applying goes through
 * the same operations as the REST API, one write after another, each with its checks, its
 * revision and the banner's republishing; the whole document is validated first (its schema,
 * configuration-document.ts), so a write is refused only for what the operations alone can tell.
 *
 * Not one transaction: the hot writes beneath a domain (embeddings, placeholders) are single
 * statements that commit on their own and have their revision recorded after the commit
 * (domain-write.ts), so they cannot join an outer transaction. An import cut short is finished
 * by running it again: it applies only what still differs.
 *
 * Objects are found by what the document names them by: a domain by its address (or the domain
 * given), themes and embeddings by name (among several of one name, an identical one first),
 * assets by name within their embedding, locales and placeholders by name. An import never
 * deletes a domain or a client; it deletes the embeddings, themes, locales and placeholders of a
 * domain that the document's sections do not have.
 */

export type FieldChange = { field: string; from?: unknown; to?: unknown; note?: string };
export type Change = { action: 'add' | 'change' | 'remove'; what: string; fields?: FieldChange[] };
export type PlanSection = { title: string; changes: Change[] };

export type ImportPlan = {
  sections: PlanSection[];
  /** What the import leaves alone and says so (a domain of the client that the file lacks). */
  notes: string[];
  /** Applies the changes; answers what to tell the operator (a new webhook's secret, …). */
  apply(ctx: RequestContext): Promise<string[]>;
};

export type ImportTarget = { clientId?: string; domainId?: string };

export const changeCount = (plan: Pick<ImportPlan, 'sections'>): number => plan.sections.reduce((sum, section) => sum + section.changes.length, 0);

/** A context of its own for each write, as each REST request has one: no unit of work or cached read carries over. */
const freshContext = (ctx: RequestContext): RequestContext => ({
  em: ctx.em.fork(),
  caller: ctx.caller,
  requestId: ctx.requestId,
  services: ctx.services,
  scoped: new Map(),
});

type Step = (ctx: RequestContext) => Promise<string | void>;

async function runSteps(ctx: RequestContext, steps: readonly Step[]): Promise<string[]> {
  const messages: string[] = [];
  for (const step of steps) {
    const message = await step(freshContext(ctx));
    if (message) messages.push(message);
  }
  return messages;
}

// ── comparing ───────────────────────────────────────────────────────────────

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `current` holds every value of `wanted` (which may name only some keys). */
const covers = (current: unknown, wanted: unknown): boolean =>
  isPlainObject(current) && isPlainObject(wanted) && Object.entries(wanted).every(([key, value]) => value === undefined || isDeepStrictEqual(current[key], value));

type CompareOptions = {
  /** Fields not compared (ids, fields compared apart). */
  skip?: readonly string[];
  /** Fields whose writes merge into the stored value (a locale's purpose texts): compared key by key. */
  merged?: readonly string[];
};

/** The fields `wanted` names whose values differ from `current`'s: what an update would send. */
function changedFields(current: Record<string, unknown>, wanted: Record<string, unknown>, options: CompareOptions = {}): FieldChange[] {
  return Object.entries(wanted).flatMap(([field, to]): FieldChange[] => {
    if (to === undefined || options.skip?.includes(field)) return [];
    const from = current[field];
    const same = options.merged?.includes(field) ? covers(from, to) : isDeepStrictEqual(from, to);
    return same ? [] : [{ field, from, to }];
  });
}

const sentFields = (changes: readonly FieldChange[], wanted: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(changes.filter((change) => change.note === undefined).map((change) => [change.field, wanted[change.field]]));

/**
 * Pairs the wanted objects with the current ones by name: an identical one first, then any one of
 * that name (in an order of their content, so the pairing is the same on every run).
 */
function pairByName<W extends { name: string }, C extends { name: string }>(wanted: readonly W[], current: readonly C[], same: (wanted: W, current: C) => boolean) {
  const ordered = byNameThenContent(current);
  const paired = new Set<C>();
  const matchOf = new Map<W, C>();
  const take = (item: W, fits: (candidate: C) => boolean) => {
    const match = ordered.find((candidate) => !paired.has(candidate) && candidate.name === item.name && fits(candidate));
    if (!match) return;
    paired.add(match);
    matchOf.set(item, match);
  };
  for (const item of wanted) take(item, (candidate) => same(item, candidate));
  for (const item of wanted) if (!matchOf.has(item)) take(item, () => true);
  return {
    pairs: wanted.flatMap((item) => (matchOf.has(item) ? [[item, matchOf.get(item)!] as const] : [])),
    added: wanted.filter((item) => !matchOf.has(item)),
    removed: ordered.filter((item) => !paired.has(item)),
  };
}

// ── a domain ────────────────────────────────────────────────────────────────

type CurrentDomain = { domain: Domain; placeholders: Placeholder[]; embeddings: Embedding[]; themes: Theme[]; locales: Locale[] };

async function readCurrentDomain(ctx: RequestContext, scope: DomainScope): Promise<CurrentDomain> {
  const [domain, placeholders, embeddings, themes, locales] = await Promise.all([
    getDomain(ctx, scope),
    listPlaceholders(ctx, scope),
    listEmbeddings(ctx, scope),
    listThemes(ctx, scope),
    listLocales(ctx, scope),
  ]);
  return { domain, placeholders, embeddings, themes, locales };
}

const quoted = (name: string) => JSON.stringify(name);

/** The address a domain has after a write of `name` (as `updateDomain` merges it: a bare host keeps scheme, port and path). */
function addressAfter(current: Domain, name: string): string {
  const next = parseSiteAddress(name);
  if ('problem' in next) return name;
  if (next.hasScheme) return siteUrl(next);
  const now = new URL(current.url);
  return siteUrl({
    scheme: now.protocol === 'http:' ? 'http' : 'https',
    host: next.host,
    port: next.hasPort ? next.port : now.port === '' ? null : Number(now.port),
    path: next.hasPath ? next.path : current.path,
  });
}

/** The domain's settings as a create takes them: the whole address as its `name`. */
function domainCreateOf(settings: DomainConfiguration['settings']): DomainCreate {
  return { ...settings, name: addressOf(settings) };
}

/** Asset payloads as stored after a write: what is left out is the default. */
const assetsAsWritten = (assets: readonly AssetCreate[]) => assets.map(({ id: _id, ...asset }) => ({ ...assetDefaults, ...asset }));
const assetsAsStored = (assets: Embedding['assets']) => assets.map(({ id: _id, ...asset }) => asset);

/** What changes between the current assets of an embedding and the wanted ones, cookie by cookie. */
function assetChanges(current: Embedding['assets'], wanted: readonly AssetCreate[]): FieldChange[] {
  const stored = assetsAsStored(current);
  const written = assetsAsWritten(wanted);
  if (isDeepStrictEqual(stored, written)) return [];
  const notes: FieldChange[] = [];
  const left = [...stored];
  for (const asset of written) {
    const index = left.findIndex((candidate) => candidate.name === asset.name);
    if (index < 0) {
      notes.push({ field: 'assets', note: `+ cookie ${asset.name}` });
      continue;
    }
    const [before] = left.splice(index, 1);
    for (const change of changedFields(before!, asset)) notes.push({ field: 'assets', note: `~ cookie ${asset.name}: ${change.field} ${formatValue(change.from)} → ${formatValue(change.to)}` });
  }
  for (const asset of left) notes.push({ field: 'assets', note: `- cookie ${asset.name}` });
  if (notes.length === 0) notes.push({ field: 'assets', note: 'cookies reordered' });
  return notes;
}

/** The assets to send with an embedding's update: a current asset of the same name keeps its id. */
function assetsToSend(current: Embedding['assets'], wanted: readonly AssetCreate[]): AssetCreate[] {
  const left = [...current];
  return wanted.map(({ id: _id, ...asset }) => {
    const index = left.findIndex((candidate) => candidate.name === asset.name);
    if (index < 0) return asset;
    const [kept] = left.splice(index, 1);
    return { ...asset, id: kept!.id };
  });
}

type DomainPlan = { changes: Change[]; steps: ((ctx: RequestContext, scope: DomainScope) => Promise<string | void>)[] };

/** What the document's domain changes on the current one, and the writes that do it, in an order the operations accept. */
function planDomainChanges(wanted: DomainConfiguration, current: CurrentDomain): DomainPlan {
  const changes: Change[] = [];
  const before: DomainPlan['steps'] = [];
  const steps: DomainPlan['steps'] = [];
  const after: DomainPlan['steps'] = [];

  // Settings: the address as a whole, then every other field the document names.
  const settingsChanges = changedFields(current.domain, wanted.settings, { skip: ['id', 'name', 'path', 'url'] });
  const address = addressOf(wanted.settings);
  const addressChanged = addressAfter(current.domain, address) !== current.domain.url;
  if (addressChanged) settingsChanges.unshift({ field: 'url', from: current.domain.url, to: addressAfter(current.domain, address) });
  if (settingsChanges.length > 0) {
    changes.push({ action: 'change', what: 'settings', fields: settingsChanges });
    const update = sentFields(settingsChanges.filter((change) => change.field !== 'url'), wanted.settings) as DomainUpdate;
    steps.push((ctx, scope) => updateDomain(ctx, scope, addressChanged ? { ...update, name: address } : update).then(() => {}));
  }

  // Placeholders: one bulk replace when any differs.
  if (wanted.placeholders) {
    const currentValues = new Map(current.placeholders.map((placeholder) => [placeholder.name, placeholder.value]));
    const wantedNames = new Set(wanted.placeholders.map((placeholder) => placeholder.name));
    const placeholderChanges: Change[] = [
      ...wanted.placeholders.flatMap((placeholder): Change[] => {
        const value = currentValues.get(placeholder.name);
        if (value === undefined) return [{ action: 'add', what: `placeholder ${placeholder.name}` }];
        return value === placeholder.value ? [] : [{ action: 'change', what: `placeholder ${placeholder.name}`, fields: [{ field: 'value', from: value, to: placeholder.value }] }];
      }),
      ...current.placeholders.filter((placeholder) => !wantedNames.has(placeholder.name)).map((placeholder): Change => ({ action: 'remove', what: `placeholder ${placeholder.name}` })),
    ];
    if (placeholderChanges.length > 0) {
      changes.push(...placeholderChanges);
      const items = wanted.placeholders;
      steps.push((ctx, scope) => replacePlaceholders(ctx, scope, items).then(() => {}));
    }
  }

  // Themes, by name.
  if (wanted.themes) {
    const { pairs, added, removed } = pairByName(wanted.themes, current.themes, (theme, stored) => changedFields(stored, theme, { skip: ['id'] }).length === 0);
    for (const theme of removed) {
      changes.push({ action: 'remove', what: `theme ${quoted(theme.name)}` });
      steps.push((ctx, scope) => deleteTheme(ctx, { ...scope, themeId: theme.id }));
    }
    for (const [theme, stored] of pairs) {
      const fields = changedFields(stored, theme, { skip: ['id'] });
      if (fields.length === 0) continue;
      changes.push({ action: 'change', what: `theme ${quoted(theme.name)}`, fields });
      steps.push((ctx, scope) => updateTheme(ctx, { ...scope, themeId: stored.id }, sentFields(fields, theme) as ThemeUpdate).then(() => {}));
    }
    for (const theme of added) {
      changes.push({ action: 'add', what: `theme ${quoted(theme.name)}` });
      steps.push((ctx, scope) => createTheme(ctx, scope, theme as ThemeCreate).then(() => {}));
    }
  }

  // Embeddings, by name; their assets by name within them.
  if (wanted.embeddings) {
    const embeddingFieldChanges = (stored: Embedding, embedding: EmbeddingCreate) => [
      ...changedFields(stored, embedding, { skip: ['id', 'assets'] }),
      ...(embedding.assets === undefined ? [] : assetChanges(stored.assets, embedding.assets)),
    ];
    const { pairs, added, removed } = pairByName(wanted.embeddings, current.embeddings, (embedding, stored) => embeddingFieldChanges(stored, embedding).length === 0);
    for (const embedding of removed) {
      changes.push({ action: 'remove', what: `embedding ${quoted(embedding.name)}` });
      steps.push((ctx, scope) => deleteEmbedding(ctx, { ...scope, embeddingId: embedding.id }));
    }
    for (const [embedding, stored] of pairs) {
      const fields = embeddingFieldChanges(stored, embedding);
      if (fields.length === 0) continue;
      changes.push({ action: 'change', what: `embedding ${quoted(embedding.name)}`, fields });
      const update: EmbeddingUpdate = {
        ...sentFields(fields, embedding),
        ...(fields.some((change) => change.field === 'assets') ? { assets: assetsToSend(stored.assets, embedding.assets ?? []) } : {}),
      };
      steps.push((ctx, scope) => updateEmbedding(ctx, { ...scope, embeddingId: stored.id }, update).then(() => {}));
    }
    for (const embedding of added) {
      changes.push({ action: 'add', what: `embedding ${quoted(embedding.name)}` });
      steps.push((ctx, scope) => createEmbedding(ctx, scope, embedding).then(() => {}));
    }
  }

  // Locales, by name. Which are active is the domain's `locales` (a settings write); a new locale
  // is made before it (inactive, so that the settings make it active where they list it), and
  // locales the document lacks go after it (no longer active then, unless the document does not say).
  if (wanted.locales) {
    const governed = wanted.settings.locales !== undefined;
    const stored = new Map(current.locales.map((locale) => [locale.name, locale]));
    const wantedNames = new Set(wanted.locales.map((locale) => locale.name));
    for (const locale of wanted.locales) {
      const existing = stored.get(locale.name);
      if (!existing) {
        changes.push({ action: 'add', what: `locale ${locale.name}` });
        const create: LocaleCreate = governed ? { ...locale, active: false } : locale;
        before.push((ctx, scope) => createLocale(ctx, scope, create).then(() => {}));
        continue;
      }
      const fields = changedFields(existing, locale, { skip: governed ? ['name', 'active'] : ['name'], merged: ['purposeNames', 'purposeDescriptions'] });
      if (fields.length === 0) continue;
      changes.push({ action: 'change', what: `locale ${locale.name}`, fields });
      const update = sentFields(fields, locale) as LocaleUpdate;
      steps.push((ctx, scope) => updateLocale(ctx, scope, locale.name, update).then(() => {}));
    }
    for (const locale of current.locales.filter((item) => !wantedNames.has(item.name))) {
      changes.push({ action: 'remove', what: `locale ${locale.name}` });
      after.push((ctx, scope) => deleteLocale(ctx, scope, locale.name));
    }
  }
  return { changes, steps: [...before, ...steps, ...after] };
}

/** Everything a new domain brings, one line per object. */
function newDomainChanges(wanted: DomainConfiguration): Change[] {
  return [
    { action: 'add', what: `domain ${addressOf(wanted.settings)}` },
    ...(wanted.placeholders ?? []).map((placeholder): Change => ({ action: 'add', what: `placeholder ${placeholder.name}` })),
    ...(wanted.themes ?? []).map((theme): Change => ({ action: 'add', what: `theme ${quoted(theme.name)}` })),
    ...(wanted.embeddings ?? []).map((embedding): Change => ({ action: 'add', what: `embedding ${quoted(embedding.name)}` })),
    ...(wanted.locales ?? []).map((locale): Change => ({ action: 'add', what: `locale ${locale.name}` })),
  ];
}

/** Applies a domain of the document to the domain `scope` (created first when `scope.domainId` is null). */
async function applyDomain(ctx: RequestContext, wanted: DomainConfiguration, scope: { clientId: string; domainId: string | null }, plan: DomainPlan | null): Promise<string[]> {
  let domainId = scope.domainId;
  let steps = plan?.steps;
  if (domainId === null) {
    domainId = (await createDomain(freshContext(ctx), { clientId: scope.clientId }, domainCreateOf(wanted.settings))).id;
    // What the new domain still lacks: worked out against it as created (its locales are there now).
    steps = planDomainChanges(wanted, await readCurrentDomain(freshContext(ctx), { clientId: scope.clientId, domainId })).steps;
  }
  const target = { clientId: scope.clientId, domainId };
  return runSteps(ctx, steps!.map((step) => (stepCtx: RequestContext) => step(stepCtx, target)));
}

/** Which of the client's domains the document's domain is: by its whole address, else by its host alone if only one has it. */
function findDomain(domains: readonly Domain[], settings: DomainConfiguration['settings'], at: string): Domain | null {
  const address = addressOf(settings);
  const parsed = parseSiteAddress(address);
  if ('problem' in parsed) return null;
  if (parsed.hasScheme) return domains.find((domain) => domain.url === siteUrl(parsed)) ?? null;
  const sameHost = domains.filter((domain) => domain.name === parsed.host && (!parsed.hasPath || domain.path === parsed.path));
  if (sameHost.length > 1) {
    throw conflict(`${at}: the client has ${sameHost.length} domains with the host ${parsed.host}; give the whole address (settings.url) or the domain (--domain)`);
  }
  return sameHost[0] ?? null;
}

type PlannedDomain = { section: PlanSection; apply: (ctx: RequestContext, clientId: string) => Promise<string[]> };

async function planOneDomain(ctx: RequestContext, wanted: DomainConfiguration, clientId: string | null, existing: Domain | null): Promise<PlannedDomain> {
  if (!existing || clientId === null) {
    return {
      section: { title: `domain ${addressOf(wanted.settings)} (new)`, changes: newDomainChanges(wanted) },
      apply: (applyCtx, client) => applyDomain(applyCtx, wanted, { clientId: client, domainId: null }, null),
    };
  }
  const scope = { clientId, domainId: existing.id };
  const plan = planDomainChanges(wanted, await readCurrentDomain(freshContext(ctx), scope));
  return {
    section: { title: `domain ${existing.url} (${existing.id})`, changes: plan.changes },
    apply: (applyCtx) => applyDomain(applyCtx, wanted, scope, plan),
  };
}

// ── a client ────────────────────────────────────────────────────────────────

async function currentWebhook(ctx: RequestContext, scope: ClientScope): Promise<string | null> {
  return getWebhook(ctx, scope).then(
    (webhook) => webhook.url,
    (error: unknown) => {
      if (error instanceof ServiceError && error.kind === 'not_found') return null;
      throw error;
    },
  );
}

async function planClient(ctx: RequestContext, document: ClientDocument, target: ImportTarget): Promise<ImportPlan> {
  const { settings } = document;
  let client: Client | null = null;
  if (target.clientId !== undefined) client = await getClient(ctx, target.clientId);
  else {
    const row = await ctx.em.fork().findOne(ClientEntity, { username: settings.username }, { fields: ['id'] });
    if (row) client = await getClient(ctx, row.id);
  }
  const sections: PlanSection[] = [];
  const notes: string[] = [];
  if (!client) {
    sections.push({
      title: `client ${settings.username} (new)`,
      changes: [
        { action: 'add', what: `client ${settings.username}` },
        ...(document.webhook ? [{ action: 'add', what: `webhook ${document.webhook.url}` } as Change] : []),
      ],
    });
    const domains = await Promise.all((document.domains ?? []).map((wanted) => planOneDomain(ctx, wanted, null, null)));
    sections.push(...domains.map((domain) => domain.section));
    return {
      sections,
      notes: ['the new client gets no password (passwords are not exported): set one with PUT /hosting/api/client/{clientId}, or give it API keys'],
      async apply(applyCtx) {
        const created = await createClient(freshContext(applyCtx), settings as ClientCreate);
        const messages = [`client ${created.username} created: ${created.id}`];
        if (document.webhook) messages.push(await webhookMade(freshContext(applyCtx), created.id, document.webhook.url));
        for (const domain of domains) messages.push(...(await domain.apply(applyCtx, created.id)));
        return messages;
      },
    };
  }

  const clientId = client.id;
  const steps: Step[] = [];
  const clientChanges: Change[] = [];
  const fields = changedFields(client, settings, { skip: ['id', 'domainCount', 'whitelabelCount', 'widgetDisplayCount'], merged: ['features'] });
  if (fields.length > 0) {
    clientChanges.push({ action: 'change', what: `client ${client.username}`, fields });
    const update = sentFields(fields, settings) as ClientUpdate;
    steps.push((stepCtx) => updateClient(stepCtx, clientId, update).then(() => {}));
  }
  if (document.webhook !== undefined) {
    const url = await currentWebhook(ctx, { clientId });
    const wanted = document.webhook?.url ?? null;
    if (url !== wanted) {
      if (wanted === null) {
        clientChanges.push({ action: 'remove', what: `webhook ${url}` });
        steps.push((stepCtx) => deleteWebhook(stepCtx, { clientId }));
      } else {
        clientChanges.push(url === null ? { action: 'add', what: `webhook ${wanted}` } : { action: 'change', what: 'webhook', fields: [{ field: 'url', from: url, to: wanted }] });
        steps.push((stepCtx) => (url === null ? webhookMade(stepCtx, clientId, wanted) : setWebhook(stepCtx, { clientId }, { url: wanted }).then(() => {})));
      }
    }
  }
  sections.push({ title: `client ${client.username} (${clientId})`, changes: clientChanges });

  const existing = await listDomains(ctx, { clientId });
  const matched = new Set<string>();
  const domains: PlannedDomain[] = [];
  for (const [index, wanted] of (document.domains ?? []).entries()) {
    const domain = findDomain(existing, wanted.settings, `/domains/${index}`);
    if (domain && matched.has(domain.id)) throw conflict(`/domains/${index}: is the same domain of the client as another one of the file, ${domain.url}`);
    if (domain) matched.add(domain.id);
    domains.push(await planOneDomain(ctx, wanted, clientId, domain));
  }
  sections.push(...domains.map((domain) => domain.section));
  for (const domain of existing.filter((item) => !matched.has(item.id)).sort((a, b) => byText(a.url, b.url))) {
    notes.push(`domain ${domain.url} (${domain.id}) is not in the file: kept (an import deletes no domain)`);
  }
  return {
    sections,
    notes,
    async apply(applyCtx) {
      const messages = await runSteps(applyCtx, steps);
      for (const domain of domains) messages.push(...(await domain.apply(applyCtx, clientId)));
      return messages;
    },
  };
}

/** Sets the client's webhook; a new one gets a new signing secret, shown this once. */
async function webhookMade(ctx: RequestContext, clientId: string, url: string): Promise<string> {
  const webhook = await setWebhook(ctx, { clientId }, { url });
  return webhook.secret ? `webhook ${url}: its new signing secret (shown this once): ${webhook.secret}` : `webhook ${url} set`;
}

// ── the document ────────────────────────────────────────────────────────────

/**
 * What importing `document` would change, and how to apply it. A domain document goes into the
 * client `target.clientId` (required): into `target.domainId` when given, else the client's domain
 * with its address, else a new domain. A client document goes into `target.clientId` when given,
 * else the client with its username, else a new client.
 */
export async function planImport(requestCtx: RequestContext, document: ConfigurationDocument, target: ImportTarget): Promise<ImportPlan> {
  // Read afresh: a plan made after writes of the same context sees them.
  const ctx = freshContext(requestCtx);
  if (document.kind === 'client') return planClient(ctx, document, target);
  const clientId = target.clientId!;
  const { kind: _kind, version: _version, ...wanted } = document;
  const existing =
    target.domainId !== undefined
      ? await getDomain(ctx, { clientId, domainId: target.domainId })
      : findDomain(await listDomains(ctx, { clientId }), wanted.settings, 'the file');
  const domain = await planOneDomain(ctx, wanted, clientId, existing);
  return { sections: [domain.section], notes: [], apply: (applyCtx) => domain.apply(applyCtx, clientId) };
}

// ── words ───────────────────────────────────────────────────────────────────

const MAX_TEXT = 60;

/** A value in a line of the diff: strings quoted and cut, lists and objects as short JSON, none for null. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  const characters = [...text];
  return characters.length <= MAX_TEXT ? text : `${characters.slice(0, MAX_TEXT).join('')}…`;
}

const SIGN = { add: '+', change: '~', remove: '-' } as const;

/** The plan as lines for people: a heading per client and domain, one line per object added or removed, one per field changed. */
export function describePlan(plan: Pick<ImportPlan, 'sections' | 'notes'>): string[] {
  const lines: string[] = [];
  for (const section of plan.sections) {
    if (section.changes.length === 0) continue;
    lines.push(section.title);
    for (const change of section.changes) {
      if (!change.fields) {
        lines.push(`  ${SIGN[change.action]} ${change.what}`);
        continue;
      }
      for (const field of change.fields) {
        lines.push(`  ${SIGN[change.action]} ${change.what}: ${field.field}${field.note ? `: ${field.note}` : ` ${formatValue(field.from)} → ${formatValue(field.to)}`}`);
      }
    }
  }
  const counts = { add: 0, change: 0, remove: 0 };
  for (const section of plan.sections) for (const change of section.changes) counts[change.action]++;
  const total = counts.add + counts.change + counts.remove;
  lines.push(total === 0 ? 'no changes' : `${total} ${total === 1 ? 'change' : 'changes'}: ${counts.add} added, ${counts.change} changed, ${counts.remove} removed`);
  for (const note of plan.notes) lines.push(`note: ${note}`);
  return lines;
}
