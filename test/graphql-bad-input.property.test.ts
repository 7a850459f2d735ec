import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLList,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/app/graphql-schema.ts';
import {
  hostileValue,
  hugeText,
  type JsonTree,
  jsonOf,
  leaf,
  list,
  literalOf,
  NULL,
  NUMBER_TEXTS,
  object,
  oddId,
  polluted,
  pollution,
  PROTO_KEYS,
  thousandAndOne,
  treeOf,
  unicodeText,
} from './support/arbitraries.ts';
import { embeddingPayload, themePayload } from './support/fixtures.ts';
import { localeNameOf, seedWorld, stateOf, type World } from './support/route-world.ts';
import { ADMIN_KEY, startTestService, type TestService } from './support/service.ts';

/**
 * The GraphQL twin of bad-input.property.test.ts: hostile values in the variables (and, less
 * often, inline literals) of every mutation of the schema — wrong types, null for required
 * fields, huge strings, odd Unicode, prototype-pollution keys, unknown fields, deep nesting, odd
 * ids, lists of 1,001 items. Every answer is below 500 and either a result or errors coded
 * BAD_USER_INPUT, NOT_FOUND, CONFLICT or graphql-js/Yoga's own GRAPHQL_VALIDATION_FAILED /
 * GRAPHQL_PARSE_FAILED (SERVICE.md §4) — never INTERNAL, never a hang — and an error leaves the
 * stored state as it was.
 */

let service: TestService;
let casesRun = 0;
const codesSeen = new Map<string, number>();
const tally = (code: string) => codesSeen.set(code, (codesSeen.get(code) ?? 0) + 1);
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  const codes = [...codesSeen].sort(([, a], [, b]) => b - a).map(([code, count]) => `${code}×${count}`);
  console.log(`graphql bad-input properties: ${casesRun} generated requests checked in total (${codes.join(', ')})`);
  await service?.close();
});

// ── the mutations, read from the schema ─────────────────────────────────────

const mutations = Object.values(schema.getMutationType()!.getFields());

/** Valid variables per mutation, against the seeded world; `tag` makes names unique. */
type Baseline = (world: World, tag: string) => Record<string, unknown>;
const BASELINES: Record<string, Baseline> = {
  createApiKey: ({ ids }, tag) => ({ clientId: ids.clientId, input: { name: `key ${tag}` } }),
  createClient: (_, tag) => ({ input: { username: `op-${tag}`, emailAddress: 'op@example.org', password: 'op-password' } }),
  createDomain: ({ ids }) => ({ clientId: ids.clientId, input: { name: 'shop.example.org' } }),
  createEmbedding: ({ ids }) => ({ ...domainOf(ids), input: embeddingPayload({ name: 'Vimeo' }) }),
  createEmbeddingAsset: ({ ids }) => ({ ...domainOf(ids), embeddingId: ids.embeddingId, input: { name: '_ga' } }),
  createEmbeddingsFromCookies: ({ ids }, tag) => ({
    ...domainOf(ids),
    cookies: [
      { name: '_ga', storageType: 'cookie' },
      { name: `unknown-${tag}`, storageType: 'localStorage' },
    ],
  }),
  createLocale: ({ ids }, tag) => ({ ...domainOf(ids), input: { name: localeNameOf(tag), widgetTitle: 'Hello' } }),
  createPlaceholder: ({ ids }, tag) => ({ ...domainOf(ids), input: { name: `p-${tag}`, value: 'x' } }),
  createTheme: ({ ids }) => ({ ...domainOf(ids), input: themePayload({ name: 'Second' }) }),
  deleteClient: ({ ids }) => ({ id: ids.clientId }),
  deleteDomain: ({ ids }) => ({ clientId: ids.clientId, id: ids.domainId }),
  deleteEmbedding: ({ ids }) => ({ ...domainOf(ids), embeddingId: ids.embeddingId }),
  deleteEmbeddingAsset: ({ ids }) => ({ ...domainOf(ids), embeddingId: ids.embeddingId, assetId: ids.assetId }),
  deleteLocale: ({ ids }) => ({ ...domainOf(ids), name: ids.localeName }),
  deletePlaceholder: ({ ids }) => ({ ...domainOf(ids), name: ids.placeholderName }),
  deleteTheme: ({ ids }) => ({ ...domainOf(ids), themeId: ids.themeId }),
  importPresets: ({ ids }) => ({ ...domainOf(ids), presets: [{ id: 200, active: true }] }),
  applyLegalFindings: ({ ids }) => ({ ...domainOf(ids), findings: { address: { company: 'Example GmbH', city: 'Bonn' }, imprintUrl: 'https://example.org/imprint' } }),
  restoreRevision: ({ ids }) => ({ ...domainOf(ids), number: Number(ids.revisionId) }),
  replacePlaceholders: ({ ids }, tag) => ({ ...domainOf(ids), placeholders: [{ name: `p-${tag}`, value: 'b' }] }),
  revokeApiKey: ({ ids }) => ({ clientId: ids.clientId, id: ids.keyId }),
  revokeOtherApiKeys: ({ ids }) => ({ clientId: ids.clientId }),
  scanDomain: ({ ids }) => domainOf(ids),
  startScan: ({ ids }) => domainOf(ids),
  startComplianceScan: ({ ids }) => domainOf(ids),
  dismissScanFinding: ({ ids }) => ({ ...domainOf(ids), id: ids.findingId }),
  setWebhook: ({ ids }) => ({ clientId: ids.clientId, input: { url: 'https://hooks.example.org/consent' } }),
  deleteWebhook: ({ ids }) => ({ clientId: ids.clientId }),
  updateClient: ({ ids }) => ({ id: ids.clientId, input: { company: 'ACME' } }),
  updateDomain: ({ ids }) => ({ clientId: ids.clientId, id: ids.domainId, input: { country: 'DE' } }),
  updateEmbedding: ({ ids }) => ({ ...domainOf(ids), embeddingId: ids.embeddingId, input: { vendor: 'Someone' } }),
  updateEmbeddingAsset: ({ ids }) => ({
    ...domainOf(ids),
    embeddingId: ids.embeddingId,
    assetId: ids.assetId,
    input: { lifetime: '1 day' },
  }),
  updateLocale: ({ ids }) => ({
    ...domainOf(ids),
    name: ids.localeName,
    input: { widgetTitle: 'Changed', purposeNames: [{ purpose: 'cdcbd7c', text: 'Ads' }] },
  }),
  updatePlaceholder: ({ ids }) => ({ ...domainOf(ids), name: ids.placeholderName, input: { value: 'changed' } }),
  updateTheme: ({ ids }) => ({ ...domainOf(ids), themeId: ids.themeId, input: { customCss: 'a { color: red }' } }),
};
function domainOf(ids: Record<string, string>) {
  return { clientId: ids.clientId, domainId: ids.domainId };
}

function baselineOf(name: string): Baseline {
  const baseline = BASELINES[name];
  if (!baseline) throw new Error(`no baseline variables for the mutation ${name}; add them to BASELINES in ${import.meta.url.split('/').at(-1)}`);
  return baseline;
}

const ALLOWED_CODES = ['BAD_USER_INPUT', 'NOT_FOUND', 'CONFLICT', 'GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED'];
/** The default test service's scanner is offline: a scan that gets through validation fails upstream. */
const allowedCodes = (mutation: string) => (mutation === 'scanDomain' ? [...ALLOWED_CODES, 'UPSTREAM_FAILURE'] : ALLOWED_CODES);
/** Mutations whose success takes seeded objects away; the world is seeded anew after one succeeds. */
const destroys = (mutation: string) => /^(delete|revoke|dismiss)/.test(mutation);

// ── variables as a tree, written out by hand so `__proto__` keys survive ───

type Path = (string | number)[];

/** The tree with the node at `path` changed (created along the way; `undefined` removes it). */
function update(tree: JsonTree | undefined, path: Path, change: (old: JsonTree | undefined) => JsonTree | undefined): JsonTree | undefined {
  if (path.length === 0) return change(tree);
  const [step, ...rest] = path;
  if (typeof step === 'number') {
    const items = tree?.kind === 'list' ? [...tree.items] : [];
    const index = Math.min(step, items.length);
    const child = update(items[index], rest, change);
    if (child === undefined) items.splice(index, 1);
    else items[index] = child;
    return list(items);
  }
  const entries = tree?.kind === 'object' ? tree.entries : [];
  const at = entries.findIndex(([key]) => key === step);
  const child = update(at >= 0 ? entries[at]![1] : undefined, rest, change);
  const others = entries.filter(([key]) => key !== step);
  if (child === undefined) return object(others);
  if (at < 0) return object([...entries, [step!, child]]);
  return object(entries.flatMap(([key, value], i): [string, JsonTree][] => (key !== step ? [[key, value]] : i === at ? [[key, child]] : [])));
}

/** For messages: runs of one character collapsed, the whole cut short. */
const preview = (text: string, max = 400) => {
  const collapsed = text.replace(/(.{1,6}?)\1{15,}/gsu, (run, unit: string) => `‹${JSON.stringify(unit)}×${run.length / unit.length}›`);
  return collapsed.length > max ? `${collapsed.slice(0, max)}…(${text.length} chars)` : collapsed;
};

// ── where edits go: every argument and input field, read from the schema ───

type Slot = { path: Path; type: GraphQLInputType };

function slotsOf(field: GraphQLField<unknown, unknown>): Slot[] {
  const slots: Slot[] = [];
  const visit = (path: Path, type: GraphQLInputType, depth: number) => {
    slots.push({ path, type });
    const inner = getNullableType(type);
    if (depth >= 3) return;
    if (isListType(inner)) visit([...path, 0], inner.ofType as GraphQLInputType, depth + 1);
    else if (isInputObjectType(inner)) {
      for (const child of Object.values(inner.getFields())) visit([...path, child.name], child.type, depth + 1);
    }
  };
  for (const arg of field.args) visit([arg.name], arg.type, 0);
  return slots;
}

/** A valid-looking item for growing a list that the baseline leaves empty. */
function defaultItem(type: GraphQLInputType): JsonTree {
  const inner = getNullableType(type);
  if (isListType(inner)) return list([]);
  if (isInputObjectType(inner)) {
    const required = Object.values(inner.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return object(required.map((f) => [f.name, defaultItem(f.type)]));
  }
  const named = getNamedType(type).name;
  return leaf(named === 'Int' || named === 'Float' ? '1' : named === 'Boolean' ? 'true' : '"x"');
}

// ── arbitraries: hostile values ─────────────────────────────────────────────

const text = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((value) => treeOf(value));
const small = (tree: JsonTree) => jsonOf(tree).length <= 500 && literalOf(tree).length <= 500;

/** Values of the right GraphQL type but hostile content, so that some get past coercion. */
const plausibleCache = new Map<string, fc.Arbitrary<JsonTree>>();
function plausible(type: GraphQLInputType, depth = 0): fc.Arbitrary<JsonTree> {
  const key = `${String(type)}@${depth}`;
  const cached = plausibleCache.get(key);
  if (cached) return cached;
  const inner = getNullableType(type);
  let arbitrary: fc.Arbitrary<JsonTree>;
  if (isListType(inner)) {
    const item = plausible(inner.ofType as GraphQLInputType, depth + 1);
    arbitrary = fc.oneof(
      { weight: 4, arbitrary: fc.array(item, { maxLength: 4 }).map(list) },
      { weight: 1, arbitrary: item.filter(small).map(thousandAndOne) },
    );
  } else if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields());
    arbitrary =
      depth >= 2
        ? fc.constant(object([]))
        : fc
            .subarray(fields, { maxLength: Math.min(6, fields.length) })
            .chain((chosen) => fc.tuple(...chosen.map((f) => plausible(f.type, depth + 1).map((value): [string, JsonTree] => [f.name, value]))))
            .map((entries) => object(entries));
  } else {
    const named = getNamedType(type).name;
    if (named === 'Int' || named === 'Float') {
      arbitrary = fc.oneof(fc.integer().map(treeOf), fc.constantFrom(...NUMBER_TEXTS).map((number) => leaf(number)));
    } else if (named === 'Boolean') arbitrary = fc.boolean().map(treeOf);
    else if (named === 'ID') arbitrary = text(oddId);
    else arbitrary = fc.oneof({ weight: 4, arbitrary: text(unicodeText) }, { weight: 1, arbitrary: text(hugeText) }, { weight: 1, arbitrary: text(oddId) });
  }
  plausibleCache.set(key, arbitrary);
  return arbitrary;
}

// ── edits of the baseline variables ─────────────────────────────────────────

type Edit =
  | { op: 'set'; path: Path; value: JsonTree }
  | { op: 'drop'; path: Path }
  | { op: 'add'; path: Path; key: string; value: JsonTree }
  | { op: 'grow'; path: Path; item: JsonTree };

function apply(variables: JsonTree, edit: Edit): JsonTree {
  switch (edit.op) {
    case 'set':
      return update(variables, edit.path, () => edit.value)!;
    case 'drop':
      return update(variables, edit.path, () => undefined) ?? object([]);
    case 'add':
      return update(variables, edit.path, (old) => object([...(old?.kind === 'object' ? old.entries : []), [edit.key, edit.value]]))!;
    case 'grow':
      return update(variables, edit.path, (old) => {
        const first = old?.kind === 'list' ? old.items[0] : undefined;
        return thousandAndOne(first && small(first) ? first : edit.item);
      })!;
  }
}

const describeEdit = (edit: Edit) => {
  const at = edit.path.join('.') || '(variables)';
  if (edit.op === 'set') return `${at} = ${preview(jsonOf(edit.value), 200)}`;
  if (edit.op === 'drop') return `${at} removed`;
  if (edit.op === 'add') return `${at}[${JSON.stringify(edit.key)}] = ${preview(jsonOf(edit.value), 200)}`;
  return `${at} = 1,001 items`;
};

function editArbitrary(slots: Slot[]): fc.Arbitrary<Edit> {
  const slot = fc.constantFrom(...slots);
  const containers: Path[] = [[], ...slots.filter((s) => isInputObjectType(getNullableType(s.type))).map((s) => s.path)];
  const lists = slots.filter((s) => isListType(getNullableType(s.type)));
  const set = slot.chain(({ path, type }) =>
    fc.oneof(hostileValue, plausible(type), getNamedType(type).name === 'ID' ? text(oddId) : plausible(type)).map((value): Edit => ({ op: 'set', path, value })),
  );
  const add = fc
    .record({
      path: fc.constantFrom(...containers),
      key: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PROTO_KEYS) }, { weight: 1, arbitrary: fc.constantFrom('unknownField', 'id', 'clientId') }, { weight: 1, arbitrary: unicodeText }),
      value: fc.oneof(pollution, hostileValue),
    })
    .map((edit): Edit => ({ op: 'add', ...edit }));
  return fc.oneof(
    { weight: 6, arbitrary: set },
    { weight: 1, arbitrary: slot.map(({ path }): Edit => ({ op: 'set', path, value: NULL })) },
    { weight: 1, arbitrary: slot.map(({ path }): Edit => ({ op: 'drop', path })) },
    { weight: 2, arbitrary: add },
    ...(lists.length > 0
      ? [{ weight: 1, arbitrary: fc.constantFrom(...lists).map(({ path, type }): Edit => ({ op: 'grow', path, item: defaultItem((getNullableType(type) as GraphQLList<GraphQLInputType>).ofType) })) }]
      : []),
  );
}

type Mode = 'variables' | 'literal';
type Case = { mode: Mode; tag: string; edits: Edit[] };

/**
 * Always tried first: pollution keys inside the first input objects (as variables and as
 * literals), NUL and a lone surrogate in their first text field, 1,001-item lists, odd ids, a
 * polluting object in place of the first argument, 3,000 nested lists as its literal.
 */
function examplesFor(slots: Slot[]): [Case][] {
  const tag = '01900000-0000-7000-8000-0000000000ff';
  const cases: Case[] = [];
  const add = (mode: Mode, ...edits: Edit[]) => cases.push({ mode, tag, edits });
  for (const { path, type } of slots.slice(0, 12)) {
    const inner = getNullableType(type);
    if (!isInputObjectType(inner) || path.length > 2) continue;
    add('variables', { op: 'add', path, key: '__proto__', value: polluted });
    add('literal', { op: 'add', path, key: '__proto__', value: polluted });
    add('variables', { op: 'add', path, key: 'constructor', value: object([['prototype', polluted]]) });
    const firstText = Object.values(inner.getFields()).find((f) => getNamedType(f.type).name === 'String');
    if (firstText) add('variables', { op: 'set', path: [...path, firstText.name], value: treeOf('a\u0000b\ud800') });
  }
  for (const { path, type } of slots.filter((s) => isListType(getNullableType(s.type))).slice(0, 2)) {
    add('variables', { op: 'grow', path, item: defaultItem((getNullableType(type) as GraphQLList<GraphQLInputType>).ofType) });
  }
  const firstId = slots.find((s) => s.path.length === 1 && getNamedType(s.type).name === 'ID');
  if (firstId) {
    add('variables', { op: 'set', path: firstId.path, value: treeOf('..') });
    add('variables', { op: 'set', path: firstId.path, value: treeOf('%2F') });
  }
  const firstArg = slots[0];
  if (firstArg) {
    add('variables', { op: 'set', path: firstArg.path, value: object([['__proto__', polluted]]) });
    add('literal', { op: 'set', path: firstArg.path, value: deepNestingOf(3_000) });
  }
  return cases.map((c) => [c]);
}
const deepNestingOf = (depth: number) => leaf('['.repeat(depth) + ']'.repeat(depth));

// ── sending and checking ────────────────────────────────────────────────────

const REQUEST_TIMEOUT_MS = 15_000;
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();

type Answer = { status: number; text: string; body: any };

/** The answer, or `undefined` when none came in time. */
async function post(body: string): Promise<Answer | undefined> {
  let response: Response;
  try {
    response = await fetch(`${service.baseUrl}/graphql`, {
      method: 'POST',
      body,
      headers: {
        authorization: `Bearer ${ADMIN_KEY}`,
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
      },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return undefined;
    throw error;
  }
  const text = await response.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, text, body: parsed };
}

/** The request body: every argument as a variable, or (literal mode) every argument inline. */
function requestBody(field: GraphQLField<unknown, unknown>, variables: JsonTree, mode: Mode): string {
  const selection = isObjectType(getNamedType(field.type)) ? ' { __typename }' : '';
  const entries = variables.kind === 'object' ? variables.entries : [];
  if (mode === 'literal') {
    const args = entries.map(([name, value]) => `${name}: ${literalOf(value)}`).join(', ');
    return `{"query":${JSON.stringify(`mutation Hostile { ${field.name}${args ? `(${args})` : ''}${selection} }`)}}`;
  }
  const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
  const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const query = `mutation Hostile${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
  return `{"query":${JSON.stringify(query)},"variables":${jsonOf(variables)}}`;
}

/**
 * Broken rules, gathered per mutation rather than thrown at the first: one systematic gap (the
 * same error on every mutation) would otherwise hide every other failure. The test still fails
 * on any of them, and reports each kind with its count and first example.
 */
class Violations {
  private readonly byKind = new Map<string, { count: number; example: string }>();
  add(kind: string, example: string) {
    const seen = this.byKind.get(kind);
    if (seen) seen.count += 1;
    else this.byKind.set(kind, { count: 1, example });
  }
  report(): string {
    return [...this.byKind].map(([kind, { count, example }]) => `■ ${kind} ×${count}, first: ${example}`).join('\n\n');
  }
}

/** Checks one answer: whether it was a result (`true`), an error (`false`), or no answer at all. */
function checkAnswer(mutation: string, answer: Answer | undefined, what: string, violations: Violations): boolean | undefined {
  casesRun += 1;
  if (answer === undefined) {
    tally('(no answer)');
    violations.add(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s (a hang)`, what);
    return undefined;
  }
  const summary = `${what}\n  → ${answer.status} ${preview(answer.text, 600)}`;
  if (answer.status >= 500) violations.add(`HTTP ${answer.status}`, summary);
  const errors: { message?: string; extensions?: { code?: unknown } }[] | undefined = answer.body?.errors;
  if (typeof answer.body !== 'object' || answer.body === null || (errors !== undefined && !Array.isArray(errors))) {
    tally('(not GraphQL)');
    violations.add('an answer that is no GraphQL response', summary);
    return false;
  }
  if (!errors || errors.length === 0) {
    tally('(result)');
    if (!answer.body.data?.[mutation]) violations.add('a result without data', summary);
    return true;
  }
  for (const error of errors) {
    const code = error.extensions?.code;
    tally(typeof code === 'string' ? code : '(no code)');
    if (code === undefined) violations.add('a GraphQL error without extensions.code', `${what}\n  → ${answer.status} ${preview(String(error.message), 300)}`);
    else if (!allowedCodes(mutation).includes(String(code))) violations.add(`extensions.code ${String(code)}`, summary);
  }
  return false;
}

function checkPrototype(what: string, violations: Violations) {
  const polluted = ({} as Record<string, unknown>).polluted !== undefined;
  const keys = Object.getOwnPropertyNames(Object.prototype).sort();
  if (polluted || keys.join() !== PROTOTYPE_KEYS.join()) violations.add('Object.prototype polluted', `${what}\n  own keys now: ${keys.join(', ')}`);
}

// ── the properties ──────────────────────────────────────────────────────────

const RUNS = 40;

describe('every GraphQL mutation has baseline variables', () => {
  it('BASELINES covers the schema', () => {
    const missing = mutations.map((m) => m.name).filter((name) => !BASELINES[name]);
    expect(missing, `mutations without baseline variables (add them to BASELINES): ${missing.join(', ')}`).toEqual([]);
  });

  it.each(mutations.map((m) => [m.name, m] as const))('%s: the baseline variables are accepted', async (name, field) => {
    const world = await seedWorld(service);
    const variables = treeOf(baselineOf(name)(world, randomUUID()));
    const answer = await post(requestBody(field, variables, 'variables'));
    const errors: { extensions?: { code?: string } }[] = answer?.body?.errors ?? [];
    const expected = name === 'scanDomain' ? ['UPSTREAM_FAILURE'] : [];
    expect(errors.map((e) => e.extensions?.code), `${name} with ${preview(jsonOf(variables))} → ${preview(answer?.text ?? '(no answer)')}`).toEqual(expected);
  });
});

describe('hostile variables and literals on every mutation', () => {
  it.each(mutations.map((m) => [m.name, m] as const))(
    '%s: a result or a coded client error (never INTERNAL, never ≥ 500, never a hang); an error changes nothing',
    async (name, field) => {
      const baseline = baselineOf(name);
      const slots = slotsOf(field);
      const violations = new Violations();
      let world = await seedWorld(service);
      let last = await stateOf(service, world);
      const arbitrary = fc.record({
        mode: fc.constantFrom<Mode>('variables', 'variables', 'variables', 'literal'),
        tag: fc.uuid(),
        edits: fc.array(editArbitrary(slots), { minLength: 1, maxLength: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ mode, tag, edits }) => {
          const variables = edits.reduce(apply, treeOf(baseline(world, tag)));
          const what = `${name} [${mode}] ${edits.map(describeEdit).join('; ')}\n  ${mode === 'literal' ? 'arguments (inline)' : 'variables'}: ${preview(jsonOf(variables), 500)}`;
          const result = checkAnswer(name, await post(requestBody(field, variables, mode)), what, violations);
          checkPrototype(what, violations);
          const now = await stateOf(service, world);
          if (result === false && !isDeepStrictEqual(now, last)) violations.add('state changed by a refused request', what);
          last = now;
          if (result === true && destroys(name)) {
            world = await seedWorld(service);
            last = await stateOf(service, world);
          }
        }),
        { numRuns: RUNS, examples: examplesFor(slots) },
      );
      expect(violations.report(), `${name}: hostile input broke the contract`).toBe('');
    },
    60_000,
  );
});
