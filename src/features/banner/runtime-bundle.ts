import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';
import type { BannerConfig } from './banner-config.ts';

/**
 * The banner's two browser bundles, built from runtime/ with esbuild: the bootstrap (inlined
 * in every app.js) and the runtime (vanilla-cookieconsent, iframemanager and their CSS; served
 * as a file of its own). They are made once per version of their sources and libraries and
 * kept in node_modules/.cache beside the PGlite template: at install (`npm run prepare`,
 * scripts/build-banner.ts), else at the first call here.
 */

export type BannerBundles = {
  /** The snippet's inline guard (runtime/guard.ts): holds what is foreign until app.js has answered, and loads it. */
  guard: string;
  bootstrap: string;
  /** The bootstrap not minified, for domains that want readable code (`frontendWidgetMinifyCode` off). */
  bootstrapReadable: string;
  runtime: string;
  /** Hex SHA-256 of the runtime's bytes (for its URL or ETag). */
  runtimeHash: string;
  /** Bundles loaded on demand, only by the domains that use them (TCF, GPP), with their hashes. */
  chunks: Record<ChunkName, { text: string; hash: string }>;
};

/** The on-demand bundles: each is runtime/<name>/index.ts, served at `/banner/<name>-<hash>.js`. */
export const CHUNK_NAMES = ['tcf', 'gpp'] as const;
export type ChunkName = (typeof CHUNK_NAMES)[number];

const RUNTIME_DIR = join(import.meta.dirname, 'runtime');
const BOOTSTRAP_GLOBAL = '__ccmBootstrap';
const GUARD_GLOBAL = '__ccmGuardBundle';

/** An installed package's directory (found from its entry point: not every package exports its package.json). */
function packageDir(name: string): string {
  const entry = fileURLToPath(import.meta.resolve(name));
  const marker = `/node_modules/${name}/`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length);
}
const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

const COOKIECONSENT_DIR = packageDir('vanilla-cookieconsent');
const LIBRARIES = {
  'vanilla-cookieconsent': versionOf(COOKIECONSENT_DIR),
  '@orestbida/iframemanager': versionOf(packageDir('@orestbida/iframemanager')),
  '@iabtechlabtcf/core': versionOf(packageDir('@iabtechlabtcf/core')),
  '@iabtechlabtcf/cmpapi': versionOf(packageDir('@iabtechlabtcf/cmpapi')),
  '@iabgpp/cmpapi': versionOf(packageDir('@iabgpp/cmpapi')),
  // Read from its package, not imported: esbuild itself loads only when the bundles are built.
  esbuild: versionOf(packageDir('esbuild')),
};
const SERVICE_VERSION = versionOf(join(import.meta.dirname, '..', '..', '..'));
const CACHE_DIR = join(COOKIECONSENT_DIR, '..', '.cache', 'consent-domain-config');

const COMMON: BuildOptions = {
  bundle: true,
  write: false,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: 'es2019',
  tsconfig: join(RUNTIME_DIR, 'tsconfig.json'),
  logLevel: 'silent',
};

type Built = { guard: string; bootstrap: string; bootstrapReadable: string; runtime: string; chunks: Record<ChunkName, string> };

async function buildBundles(): Promise<Built> {
  const { build, stop } = await import('esbuild');
  // esbuild's builds run in a child process, kept for later builds unless stopped: there are none.
  const [guard, bootstrap, bootstrapReadable, runtime, ...chunks] = await Promise.all([
    // esbuild escapes `</script` in its output, so the guard can stand inline in a page.
    build({ ...COMMON, entryPoints: [join(RUNTIME_DIR, 'guard.ts')], globalName: GUARD_GLOBAL, legalComments: 'none' }),
    build({ ...COMMON, entryPoints: [join(RUNTIME_DIR, 'bootstrap.ts')], globalName: BOOTSTRAP_GLOBAL, legalComments: 'none' }),
    build({ ...COMMON, minify: false, entryPoints: [join(RUNTIME_DIR, 'bootstrap.ts')], globalName: BOOTSTRAP_GLOBAL, legalComments: 'none' }),
    build({
      ...COMMON,
      entryPoints: [join(RUNTIME_DIR, 'runtime.ts')],
      loader: { '.css': 'text' },
      define: { __CCM_RUNTIME_VERSION__: JSON.stringify(SERVICE_VERSION) },
      // The libraries' MIT notices stay with them.
      legalComments: 'eof',
    }),
    ...CHUNK_NAMES.map((name) =>
      build({
        ...COMMON,
        entryPoints: [join(RUNTIME_DIR, name, 'index.ts')],
        loader: { '.css': 'text' },
        define: { __CCM_RUNTIME_VERSION__: JSON.stringify(SERVICE_VERSION) },
        legalComments: 'eof',
      }),
    ),
  ]).finally(() => stop());
  return {
    guard: guard.outputFiles![0]!.text.trim(),
    bootstrap: bootstrap.outputFiles![0]!.text,
    bootstrapReadable: bootstrapReadable.outputFiles![0]!.text,
    runtime: runtime.outputFiles![0]!.text,
    chunks: Object.fromEntries(CHUNK_NAMES.map((name, i) => [name, chunks[i]!.outputFiles![0]!.text])) as Record<ChunkName, string>,
  };
}

/** What the bundles are made of: the runtime's sources, this file (the build options), the libraries' versions. */
async function cacheKey(): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ LIBRARIES, SERVICE_VERSION }));
  const sources = [
    ...(await readdir(RUNTIME_DIR, { recursive: true })).sort().map((name) => join(RUNTIME_DIR, name)),
    join(import.meta.dirname, 'banner-config.ts'),
    fileURLToPath(import.meta.url),
  ];
  for (const path of sources) {
    if ((await stat(path)).isDirectory()) continue;
    hash.update(relative(import.meta.dirname, path)).update('\0').update(await readFile(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

const readCache = (path: string): Promise<Built | undefined> =>
  readFile(path, 'utf8').then(
    (text) => {
      try {
        const cached = JSON.parse(text) as Partial<Built>;
        const complete =
          (['guard', 'bootstrap', 'bootstrapReadable', 'runtime'] as const).every((part) => typeof cached[part] === 'string') &&
          CHUNK_NAMES.every((name) => typeof cached.chunks?.[name] === 'string');
        return complete ? (cached as Built) : undefined;
      } catch {
        return undefined;
      }
    },
    () => undefined,
  );

/** Stores the bundles (written aside and renamed, so that a reader never sees half a file) and drops older ones. */
async function writeCache(path: string, bundles: Built): Promise<void> {
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify(bundles));
  await rename(partial, path);
  const stale = (await readdir(CACHE_DIR)).filter((name) => /^banner-[0-9a-f]+\.json$/.test(name) && join(CACHE_DIR, name) !== path);
  await Promise.all(stale.map((name) => rm(join(CACHE_DIR, name), { force: true })));
}

async function loadOrBuild(): Promise<BannerBundles> {
  const path = join(CACHE_DIR, `banner-${await cacheKey()}.json`);
  let bundles = await readCache(path);
  if (!bundles) {
    bundles = await buildBundles();
    // A cache that cannot be written (a read-only node_modules) only means building again next time.
    await writeCache(path, bundles).catch(() => undefined);
  }
  const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
  const chunks = Object.fromEntries(CHUNK_NAMES.map((name) => [name, { text: bundles.chunks[name], hash: hashOf(bundles.chunks[name]) }])) as BannerBundles['chunks'];
  return { ...bundles, runtimeHash: hashOf(bundles.runtime), chunks };
}

let loading: Promise<BannerBundles> | undefined;

/** The bundles from the cache, or built (and cached) when there are none for these sources. Loaded once a process. */
export function loadBannerBundles(): Promise<BannerBundles> {
  loading ??= loadOrBuild().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** JSON that may stand in a page's inline script: no `<` (nor U+2028/U+2029, which end a line before ES2019). */
const inlineJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/**
 * The snippet a site puts first in its `<head>`: the guard, inline (the page waits for nothing),
 * loading `appUrl`. See runtime/guard.ts.
 */
export function guardSnippet(bundles: Pick<BannerBundles, 'guard'>, appUrl: string): string {
  return `<script data-ccm-snippet>(function(){${bundles.guard}\n${GUARD_GLOBAL}.guard(${inlineJson(appUrl)});})();</script>`;
}

/**
 * The text of app.js for a domain: the bootstrap, started with the domain's configuration and
 * the runtime's address. Served as an external script, so the JSON needs no HTML escaping.
 * `readable` (`frontendWidgetMinifyCode` off, CCM19's setting for debugging): the bootstrap not
 * minified and the configuration indented; the shared runtime stays minified.
 */
export function appScript(bundles: Pick<BannerBundles, 'bootstrap' | 'bootstrapReadable'>, config: BannerConfig, runtimeUrl: string, readable = false): string {
  // U+2028 and U+2029 are valid in JSON but end a line in JavaScript before ES2019.
  const json = (value: unknown) => JSON.stringify(value, null, readable ? 2 : undefined).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `${config.tcf ? TCF_STUB : ''}(function(){${readable ? bundles.bootstrapReadable : bundles.bootstrap}\n${BOOTSTRAP_GLOBAL}.start(${json(config)},${json(runtimeUrl)});})();\n`;
}

const IAB_TCF_STUB = readFileSync(join(packageDir('@iabtechlabtcf/stub'), 'lib', 'stub.js'), 'utf8').trim();
/**
 * The stub forgets a frame's window as soon as its call returns (`r=null`, iabtcf-es #454), so a
 * frame's `addEventListener` never hears of a later choice, nor any call of a frame answered
 * after the CMP loaded: kept here. Refuses to start with a stub that is not the one patched.
 */
const IAB_TCF_STUB_KEEPING_FRAMES = IAB_TCF_STUB.replace(',n.parameter),r=null}', ',n.parameter)}');
if (IAB_TCF_STUB_KEEPING_FRAMES === IAB_TCF_STUB) throw new Error('@iabtechlabtcf/stub changed: check its postMessage proxy (runtime-bundle.ts)');

/**
 * IAB's TCF stub (@iabtechlabtcf/stub), only in the app.js of TCF domains, before the bootstrap:
 * `__tcfapi` queues calls until the TCF bundle's CmpApi takes them, the `__tcfapiLocator` frame and
 * the `__tcfapiCall` messages of frames below. Its `ping` gets the API version the CMP speaks.
 */
const TCF_STUB =
  `(function(){${IAB_TCF_STUB_KEEPING_FRAMES}\n})();` +
  `(function(){var s=window.__tcfapi;if(typeof s!=='function'||s.ccm)return;var t=function(c,v,f){if(c==='ping'&&typeof f==='function')` +
  `return s(c,v,function(p){p.apiVersion='2.2';f(p);});return s.apply(this,arguments);};t.ccm=1;window.__tcfapi=t;})();\n`;
