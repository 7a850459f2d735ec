/**
 * Replays the Dockerfile's runtime stage without Docker (no Docker daemon runs here) and checks
 * that the service it makes works as a non-root user, on the embedded database and on
 * PostgreSQL. CI runs it: `node scripts/replay-runtime-stage.ts`.
 *
 * It reads the Dockerfile, not a copy of its steps: the stage named `runtime` and the stages it
 * copies from are replayed in order, each in a directory of its own under a temporary directory
 * that stands for the image's file system. The paths the Dockerfile makes (its WORKDIR and VOLUME
 * paths: /app, /data) are moved there; everything else is this machine: its Node (checked to be
 * the image's major version) stands in for the base image, and RUN steps that call apt-get are
 * not run (what they would install is checked here instead). RUN steps run as root, as in the
 * image; the image's USER (`node`, which does not exist here) becomes `nobody`, in RUN steps'
 * `user:group` too, and the CMD runs as `nobody` with the image's ENV, on a free port on
 * 127.0.0.1.
 *
 * Checked as `nobody`: /healthz and /readyz answer 200; readiness has started Chromium, with its
 * sandbox (no --no-sandbox, zygotes in the sandbox's PID namespaces); the image's HEALTHCHECK
 * passes; a data directory on the embedded database is nobody's alone (0700); SIGTERM stops the
 * service with status 0; and one scan of a page served here, with `consent-config scan`. Where
 * this machine lacks the image's CHROME_PATH, the project's @sparticuz/chromium stands in. PostgreSQL is reached at PG_HOST (127.0.0.1) as PG_USER (postgres),
 * in a database made and dropped here. Exits non-zero on any failure; REPLAY_KEEP=1 keeps the
 * temporary directory.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { chmod, chown, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const PROJECT = fileURLToPath(new URL('..', import.meta.url));
const DOCKERFILE = join(PROJECT, 'Dockerfile');
/** The user the image's USER becomes here. */
const REPLAY_USER = { name: 'nobody', group: 'nogroup', uid: 65534, gid: 65534 };
/** The PATH of the official Node images, behind the directory of this Node. */
const IMAGE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 40_000;

const started = performance.now();
const seconds = (since = started) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
/** A line of the replay's account; a section's first line (`── …`) says when it began. */
const say = (line: string) => console.log(line.startsWith('──') ? `${line}  [${seconds()}]` : line);

class ReplayError extends Error {}

// ── the Dockerfile ──────────────────────────────────────────────────────────────────────────

type Instruction = { keyword: string; args: string; line: number };
type Stage = { name: string; image: string; instructions: Instruction[] };

/** Instructions, with `\` continuations joined and comments dropped (also between continued lines). */
function parseInstructions(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  let pending: { parts: string[]; line: number } | undefined;
  text.split('\n').forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const continued = /\\\s*$/.test(raw);
    const part = continued ? raw.replace(/\\\s*$/, '') : raw;
    pending ??= { parts: [], line: index + 1 };
    pending.parts.push(part.trim());
    if (continued) return;
    const joined = pending.parts.join(' ');
    const keyword = joined.split(/\s+/)[0] ?? '';
    instructions.push({ keyword: keyword.toUpperCase(), args: joined.slice(keyword.length).trim(), line: pending.line });
    pending = undefined;
  });
  if (pending) throw new ReplayError(`Dockerfile line ${pending.line}: a continuation runs past the end of the file`);
  return instructions;
}

/** `$NAME`, `${NAME}` and `${NAME:-default}` from `variables`. */
function substitute(text: string, variables: Record<string, string | undefined>): string {
  return text.replace(/\$\{(\w+)(?::-([^}]*))?\}|\$(\w+)/g, (_match, braced: string | undefined, fallback: string | undefined, bare: string | undefined) => {
    const value = variables[(braced ?? bare)!];
    return value !== undefined && value !== '' ? value : (fallback ?? '');
  });
}

/** Words of a shell-like line: whitespace separates, quotes group, a backslash escapes. */
function words(text: string): string[] {
  const found: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < text.length) word = (word ?? '') + text[++i]!;
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i]!;
    } else if (/\s/.test(char)) {
      if (word !== undefined) found.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) found.push(word);
  return found;
}

/** The exec form (`["a", "b"]`) as its list; the shell form as `/bin/sh -c`, as Docker runs it. */
function commandOf(args: string): string[] {
  if (args.startsWith('[')) {
    const parsed: unknown = JSON.parse(args);
    if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === 'string')) throw new ReplayError(`not a list of strings: ${args}`);
    return parsed;
  }
  return ['/bin/sh', '-c', args];
}

function readStages(): Stage[] {
  const instructions = parseInstructions(readFileSync(DOCKERFILE, 'utf8'));
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = words(substitute(instruction.args, globalArgs));
      stages.push({ name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length), image, instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new ReplayError(`Dockerfile line ${instruction.line}: ${instruction.keyword} before the first FROM`);
      const [name = '', value = ''] = instruction.args.split(/=(.*)/s);
      globalArgs[name.trim()] = words(value).join(' ');
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

// ── the file system of the image, here ──────────────────────────────────────────────────────

/** Where the image's paths are here: its WORKDIR and VOLUME paths, under the stage's directory. */
class ImagePaths {
  private readonly root: string;
  private readonly prefixes: string[];
  constructor(root: string, prefixes: string[]) {
    this.root = root;
    this.prefixes = [...new Set(prefixes)].sort((a, b) => b.length - a.length);
  }

  /** One path of the image. */
  path(path: string): string {
    const prefix = this.prefixes.find((candidate) => path === candidate || path.startsWith(`${candidate}/`));
    return prefix ? join(this.root, path) : path;
  }

  /** Every image path in a command line or a value. */
  text(text: string): string {
    let mapped = text;
    for (const prefix of this.prefixes) {
      const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      mapped = mapped.replace(new RegExp(`(?<=^|[\\s='":])${escaped}(?=$|[\\s/'";&|)])`, 'g'), join(this.root, prefix));
    }
    return mapped;
  }
}

/** The image's paths: WORKDIR and VOLUME targets anywhere in the Dockerfile. */
function imagePathsOf(stages: Stage[]): string[] {
  const paths: string[] = [];
  for (const instruction of stages.flatMap((stage) => stage.instructions)) {
    if (instruction.keyword === 'WORKDIR') paths.push(instruction.args);
    if (instruction.keyword === 'VOLUME') paths.push(...(instruction.args.startsWith('[') ? (JSON.parse(instruction.args) as string[]) : words(instruction.args)));
  }
  return paths.filter((path) => path.startsWith('/') && path !== '/');
}

/** .dockerignore's patterns as a test of a path relative to the build context (`!` re-includes). */
function dockerignore(): (path: string) => boolean {
  const file = join(PROJECT, '.dockerignore');
  if (!existsSync(file)) return () => false;
  const rules = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const pattern = posix.normalize((include ? line.slice(1) : line).replace(/^\/+/, ''));
      const source = pattern
        .split('/')
        .map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
        .join('/');
      // A pattern naming a directory leaves out everything in it.
      return { include, test: new RegExp(`^${source}(/.*)?$`) };
    });
  return (path) => rules.reduce((ignored, rule) => (rule.test.test(path) ? !rule.include : ignored), false);
}

// ── replaying a stage ───────────────────────────────────────────────────────────────────────

type Built = {
  stage: Stage;
  paths: ImagePaths;
  env: Record<string, string>;
  workdir: string;
  user: string | undefined;
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[] | undefined;
};

const nodeBin = dirname(process.execPath);

/** The image's user and group (`node`, `node:node`, from USER) → this machine's. */
function userMapping(stage: Stage): (text: string) => string {
  const user = stage.instructions.findLast((instruction) => instruction.keyword === 'USER')?.args;
  if (!user) return (text) => text;
  const [name, group = name] = user.split(':') as [string, string | undefined];
  const spec = new RegExp(`(?<=^|[\\s=])${name}:${group}(?=$|\\s)`, 'g');
  return (text) => text.replace(spec, `${REPLAY_USER.name}:${REPLAY_USER.group}`);
}

/** A command as root, its output passed through; fails the replay unless it succeeds. */
function run(command: string[], options: { cwd: string; env: Record<string, string> }): void {
  const result = spawnSync(command[0]!, command.slice(1), { cwd: options.cwd, env: options.env, stdio: 'inherit' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new ReplayError(`exited with ${result.status ?? result.signal}: ${command.join(' ')}`);
}

/** This machine's proxies and certificate authorities, which a build here goes through (Docker passes the proxies to builds too). */
function networkSettings(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && /^(https?_proxy|no_proxy|npm_config_.+|node_extra_ca_certs|ssl_cert_file|ssl_cert_dir)$/i.test(entry[0]),
    ),
  );
}

/** The packages an `apt-get install` in `command` names, and which of them this machine lacks. */
function aptPackages(command: string): { wanted: string[]; missing: string[] } {
  const wanted = command
    .split(/&&|;/)
    .map((part) => words(part))
    .filter((part) => part[0] === 'apt-get' && part.includes('install'))
    .flatMap((part) => part.slice(part.indexOf('install') + 1).filter((word) => !word.startsWith('-')));
  const missing = wanted.filter((name) => {
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return !status.stdout.includes('install ok installed');
  });
  return { wanted, missing };
}

async function replayStage(stages: Stage[], name: string, base: string, built: Map<string, Built>): Promise<Built> {
  const done = built.get(name);
  if (done) return done;
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) throw new ReplayError(`the Dockerfile has no stage ${name}`);
  // The stages it copies from, first.
  for (const instruction of stage.instructions) {
    const from = instruction.keyword === 'COPY' ? /--from=(\S+)/.exec(instruction.args)?.[1] : undefined;
    if (from) await replayStage(stages, from, base, built);
  }

  const root = join(base, 'stages', stage.name);
  await mkdir(root, { recursive: true });
  const paths = new ImagePaths(root, imagePathsOf(stages));
  const mapUser = userMapping(stage);
  const ignored = dockerignore();
  const result: Built = { stage, paths, env: {}, workdir: '/', user: undefined, entrypoint: [], cmd: [], healthcheck: undefined };
  const args: Record<string, string> = {};
  const imageMajor = /^(?:[\w.-]+\/)*node:(\d+)/.exec(stage.image)?.[1];
  if (imageMajor !== process.versions.node.split('.')[0]) {
    throw new ReplayError(`stage ${stage.name} is FROM ${stage.image}; this Node is ${process.version}, not the image's`);
  }
  say(`── stage ${stage.name}: FROM ${stage.image} (this machine stands in for it: Node ${process.version})`);

  for (const instruction of stage.instructions) {
    const { keyword } = instruction;
    const variables = { ...args, ...result.env };
    const cwd = paths.path(result.workdir);
    const label = `${keyword} ${instruction.args.length > 110 ? `${instruction.args.slice(0, 107)}…` : instruction.args}`;
    switch (keyword) {
      case 'ARG': {
        const [key = '', value = ''] = instruction.args.split(/=(.*)/s);
        args[key.trim()] = words(value).join(' ');
        break;
      }
      case 'ENV': {
        const parts = words(instruction.args);
        const pairs = parts[0]?.includes('=')
          ? parts.map((part) => part.split(/=(.*)/s, 2) as [string, string])
          : [[parts[0] ?? '', instruction.args.slice((parts[0] ?? '').length).trim()] as [string, string]];
        for (const [key, value] of pairs) result.env[key] = substitute(value, variables);
        say(`   ENV ${pairs.map(([key]) => `${key}=${result.env[key]}`).join(' ')}`);
        break;
      }
      case 'WORKDIR': {
        const target = substitute(instruction.args, variables);
        result.workdir = posix.resolve(result.workdir, target);
        await mkdir(paths.path(result.workdir), { recursive: true });
        say(`   WORKDIR ${result.workdir} → ${paths.path(result.workdir)}`);
        break;
      }
      case 'COPY': {
        const parts = instruction.args.startsWith('[') ? (JSON.parse(instruction.args) as string[]) : words(instruction.args);
        const flags = Object.fromEntries(parts.filter((part) => part.startsWith('--')).map((flag) => flag.slice(2).split(/=(.*)/s, 2) as [string, string]));
        const unknown = Object.keys(flags).filter((flag) => !['from', 'chown', 'chmod'].includes(flag));
        if (unknown.length > 0) throw new ReplayError(`Dockerfile line ${instruction.line}: COPY --${unknown.join(', --')} is not replayed yet`);
        const operands = parts.filter((part) => !part.startsWith('--')).map((part) => substitute(part, variables));
        const destination = operands.pop()!;
        const copying = performance.now();
        const into = paths.path(posix.resolve(result.workdir, destination));
        for (const source of operands) {
          const from = flags.from ? built.get(flags.from)! : undefined;
          const path = from ? from.paths.path(posix.resolve(from.workdir, source)) : join(PROJECT, source);
          const isDirectory = (await stat(path)).isDirectory();
          const target = isDirectory || !(destination.endsWith('/') || operands.length > 1) ? into : join(into, posix.basename(source));
          await mkdir(isDirectory ? target : dirname(target), { recursive: true });
          if (from) {
            // Large (node_modules): hard links, as a stage is not changed after it was built.
            execFileSync('cp', ['-a', '--link', ...(isDirectory ? [`${path}/.`, target] : [path, target])]);
          } else {
            await cp(path, target, { recursive: true, preserveTimestamps: true, filter: (entry) => !ignored(relative(PROJECT, entry)) });
          }
          if (flags.chown) execFileSync('chown', ['-R', mapUser(flags.chown), target]);
          if (flags.chmod) execFileSync('chmod', ['-R', flags.chmod, target]);
        }
        say(`   ${label}${flags.from ? ` (${seconds(copying)})` : ''}`);
        break;
      }
      case 'RUN': {
        if (instruction.args.startsWith('--')) throw new ReplayError(`Dockerfile line ${instruction.line}: RUN with flags is not replayed yet`);
        if (/^\s*apt-get\b/.test(instruction.args)) {
          const { wanted, missing } = aptPackages(instruction.args);
          say(`   RUN apt-get … (not run here) installs ${wanted.join(' ')}${missing.length ? `; this machine lacks ${missing.join(' ')}` : ''}`);
          break;
        }
        // Variables in RUN are the shell's (Docker substitutes none there).
        const command = commandOf(paths.text(mapUser(instruction.args)));
        const since = performance.now();
        say(`   RUN ${command.at(-1)}`);
        run(command, {
          cwd,
          // As root, as in the image, on this machine's network; npm's cache is this machine's (filled by the install before).
          env: {
            ...networkSettings(),
            ...args,
            ...mapEnv(result.env, paths),
            PATH: `${nodeBin}:${IMAGE_PATH}`,
            HOME: process.env.HOME ?? '/root',
            npm_config_prefer_offline: 'true',
            npm_config_update_notifier: 'false',
          },
        });
        say(`   (${seconds(since)})`);
        break;
      }
      case 'USER':
        result.user = instruction.args;
        say(`   USER ${instruction.args} → ${REPLAY_USER.name} (uid ${REPLAY_USER.uid})`);
        break;
      case 'ENTRYPOINT':
        result.entrypoint = commandOf(instruction.args);
        break;
      case 'CMD':
        result.cmd = commandOf(instruction.args);
        break;
      case 'HEALTHCHECK': {
        const command = /\bCMD\s+(.*)$/s.exec(instruction.args)?.[1];
        result.healthcheck = command ? commandOf(command) : undefined;
        break;
      }
      case 'VOLUME':
      case 'EXPOSE':
      case 'LABEL':
      case 'STOPSIGNAL':
        break;
      default:
        throw new ReplayError(`Dockerfile line ${instruction.line}: ${keyword} is not replayed yet`);
    }
  }
  built.set(name, result);
  return result;
}

function mapEnv(env: Record<string, string>, paths: ImagePaths): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, paths.path(value)]));
}

// ── running the image ───────────────────────────────────────────────────────────────────────

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

type Running = { child: ChildProcess; output: string[]; exited: Promise<number | string> };

/** A command of the image as the replay user, in its own process group (so that all of it can be stopped). */
function startAs(command: string[], cwd: string, env: Record<string, string>): Running {
  const child = spawn('setpriv', [`--reuid=${REPLAY_USER.uid}`, `--regid=${REPLAY_USER.gid}`, '--clear-groups', '--', ...command], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const keep = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { child, output, exited };
}

const runAs = (command: string[], cwd: string, env: Record<string, string>) =>
  spawnSync('setpriv', [`--reuid=${REPLAY_USER.uid}`, `--regid=${REPLAY_USER.gid}`, '--clear-groups', '--', ...command], { cwd, env, encoding: 'utf8', timeout: 120_000 });

/** runAs without blocking this process (which may be serving what the command reaches). */
async function runAsAsync(command: string[], cwd: string, env: Record<string, string>): Promise<{ status: number | string; stdout: string; stderr: string }> {
  const running = startAs(command, cwd, env);
  const stdout: string[] = [];
  const stderr: string[] = [];
  running.child.stdout!.on('data', (chunk: Buffer) => stdout.push(chunk.toString()));
  running.child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const timeout = setTimeout(() => process.kill(-running.child.pid!, 'SIGKILL'), 120_000);
  const status = await running.exited.finally(() => clearTimeout(timeout));
  return { status, stdout: stdout.join(''), stderr: stderr.join('') };
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  return { status: response.status, body: await response.text() };
}

/** The image's command (ENTRYPOINT + CMD), without an entry point this machine does not have. */
function imageCommand(image: Built): string[] {
  const entrypoint = image.entrypoint[0];
  if (entrypoint && !existsSync(entrypoint)) {
    say(`   (ENTRYPOINT ${image.entrypoint.join(' ')} is not on this machine: the CMD runs without it)`);
    return image.cmd;
  }
  return [...image.entrypoint, ...image.cmd];
}

/**
 * Starts the image's command as the replay user, checks it, stops it with SIGTERM. Returns what
 * it found for the summary.
 */
async function serve(image: Built, command: string[], label: string, env: Record<string, string>): Promise<string> {
  const since = performance.now();
  const port = Number(env.PORT);
  say(`── ${label}: ${command.join(' ')} as ${REPLAY_USER.name}, on 127.0.0.1:${port}`);
  const service = startAs(command, image.paths.path(image.workdir), env);
  const base = `http://127.0.0.1:${port}`;
  try {
    const early = service.exited.then((code) => ({ code }));
    for (;;) {
      if (performance.now() - since > START_TIMEOUT_MS) throw new ReplayError(`the service did not answer within ${START_TIMEOUT_MS / 1000} s`);
      const answered = await Promise.race([get(`${base}/healthz`).catch(() => undefined), early]);
      if (answered && 'code' in answered) throw new ReplayError(`the service exited with ${answered.code} before it answered`);
      if (answered) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const startup = seconds(since);
    for (const path of ['/healthz', '/readyz']) {
      const answer = await get(`${base}${path}`);
      say(`   GET ${path} → ${answer.status} ${answer.body.slice(0, 200)}`);
      if (answer.status !== 200) throw new ReplayError(`${path} answered ${answer.status}: ${answer.body}`);
    }
    // /readyz has started the browser; it stays open for a while.
    checkSandbox(env.CHROME_PATH);
    if (image.healthcheck) {
      const check = runAs(image.healthcheck, image.paths.path(image.workdir), env);
      say(`   HEALTHCHECK ${image.healthcheck.join(' ').slice(0, 90)}… → exit ${check.status}`);
      if (check.status !== 0) throw new ReplayError(`the image's HEALTHCHECK failed (${check.status}): ${check.stderr}`);
    }
    if (!env.DATABASE_URL) await checkDataDir(env.DATA_DIR!);
    service.child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([service.exited, new Promise((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS, 'timeout')))]);
    clearTimeout(timer);
    say(`   SIGTERM → exit ${code}`);
    if (code !== 0) throw new ReplayError(`after SIGTERM the service ended with ${code}, not 0`);
    return `${label} ok (answering after ${startup})`;
  } catch (error) {
    say(`   the service's last output:\n${service.output.slice(-30).map((line) => `   | ${line}`).join('\n')}`);
    throw error;
  } finally {
    if (service.child.exitCode === null && service.child.signalCode === null) process.kill(-service.child.pid!, 'SIGKILL');
  }
}

/**
 * The embedded database's directory is the replay user's and closed to others (0700). What is
 * inside is the user's too; the files copied from the template are 0600 (test/container checks
 * the copy), those PostgreSQL writes later keep its own modes behind the closed directory.
 */
async function checkDataDir(dataDir: string): Promise<void> {
  const problems: string[] = [];
  const root = await stat(dataDir);
  if (root.uid !== REPLAY_USER.uid || (root.mode & 0o777) !== 0o700) problems.push(`${dataDir}: uid ${root.uid}, mode ${(root.mode & 0o777).toString(8)}`);
  let entries = 0;
  for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const found = await stat(path);
    entries++;
    if (found.uid !== REPLAY_USER.uid) problems.push(`${relative(dataDir, path)}: uid ${found.uid}`);
  }
  say(`   DATA_DIR ${dataDir}: mode ${(root.mode & 0o777).toString(8)}, owner uid ${root.uid}, ${entries} entries${problems.length ? `; ${problems.length} problems` : `, all ${REPLAY_USER.name}'s`}`);
  if (problems.length > 0) throw new ReplayError(`the data directory is not the service user's alone: ${problems.slice(0, 5).join('; ')}`);
}

/**
 * The browser runs as the replay user with its sandbox: no process of it has --no-sandbox, and
 * its zygotes are in PID namespaces of their own (the sandbox's; /proc/PID/status NSpid has two ids).
 */
function checkSandbox(chromePath: string | undefined): void {
  if (!chromePath) return;
  const binary = realpathSync(chromePath);
  const browser = readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        if (readlinkSync(`/proc/${pid}/exe`) !== binary) return [];
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
        const namespaced = (/^NSpid:\s+(.*)$/m.exec(status)?.[1] ?? '').trim().split(/\s+/).length > 1;
        return uid === REPLAY_USER.uid ? [{ cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'), namespaced }] : [];
      } catch {
        return [];
      }
    });
  const unsandboxed = browser.filter((found) => found.cmdline.includes('--no-sandbox')).length;
  const namespaced = browser.filter((found) => found.namespaced).length;
  say(`   Chromium: ${browser.length} processes of ${REPLAY_USER.name}, ${unsandboxed} with --no-sandbox, ${namespaced} in a PID namespace of the sandbox`);
  if (browser.length === 0) throw new ReplayError(`no Chromium process of ${REPLAY_USER.name} runs after /readyz`);
  if (unsandboxed > 0 || namespaced === 0) throw new ReplayError('Chromium runs without its sandbox');
}

/**
 * The image's CHROME_PATH, or, where this machine lacks it (apt-get is not replayed), the
 * Chromium of the project's @sparticuz/chromium, unpacked by root (the project may lie in a
 * directory only root can enter, as a fresh clone in a `mktemp -d` does) into `directory`, which
 * every user may then read, as /usr/lib/chromium in the image.
 */
async function chromiumHere(chromePath: string | undefined, directory: string): Promise<string | undefined> {
  if (!chromePath) return undefined;
  try {
    accessSync(chromePath, constants.X_OK);
    return chromePath;
  } catch {
    await mkdir(directory);
    const unpack = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const { default: c } = await import('@sparticuz/chromium'); process.stdout.write(await c.executablePath());"],
      { cwd: PROJECT, env: { ...process.env, TMPDIR: directory }, encoding: 'utf8' },
    );
    if (unpack.status !== 0) throw new ReplayError(`CHROME_PATH ${chromePath} is not here, and the packaged Chromium could not be unpacked: ${unpack.stderr}`);
    execFileSync('chmod', ['-R', 'a+rX', directory]);
    say(`   CHROME_PATH ${chromePath} is not on this machine: the project's @sparticuz/chromium stands in (${unpack.stdout})`);
    return unpack.stdout;
  }
}

/** One scan of a page served here, by the image's command line, as the replay user (Chromium's sandbox on: not root). */
async function scanOnce(image: Built, env: Record<string, string>): Promise<string> {
  const site = createHttpServer((_req, res) => {
    res.setHeader('Set-Cookie', 'replay_visit=1; Path=/; Max-Age=600');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end('<!doctype html><title>replay</title><p>A page for the replay of the image.</p><script>localStorage.setItem("replay_key", "1")</script>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
  const since = performance.now();
  try {
    const command = ['node', 'bin/consent-config.js', 'scan', url, '--allow-private', '--pages', '1'];
    say(`── scan: ${command.join(' ')} as ${REPLAY_USER.name}`);
    const scan = await runAsAsync(command, image.paths.path(image.workdir), env);
    if (scan.status !== 0) throw new ReplayError(`the scan failed (${scan.status}): ${scan.stderr.trim().split('\n').slice(-15).join('\n')}`);
    const report = JSON.parse(scan.stdout) as { cookies: { name: string }[]; localStorage: { name: string }[] };
    const found = report.cookies.some((cookie) => cookie.name === 'replay_visit') && report.localStorage.some((key) => key.name === 'replay_key');
    say(`   cookies: ${report.cookies.map((cookie) => cookie.name).join(', ') || 'none'}; localStorage: ${report.localStorage.map((key) => key.name).join(', ') || 'none'} (${seconds(since)})`);
    if (!found) throw new ReplayError(`the scan did not find the page's cookie and localStorage key`);
    return 'scan ok (Chromium sandbox on)';
  } finally {
    site.close();
  }
}

// ── the replay ──────────────────────────────────────────────────────────────────────────────

async function main(): Promise<string[]> {
  if (process.getuid?.() !== 0) throw new ReplayError('run as root: the image runs its RUN steps as root and the service as another user');
  const base = await mkdtemp(join(tmpdir(), 'replay-runtime-'));
  // Others pass through, as through the image's /.
  await chmod(base, 0o755);
  const admin = new pg.Client({ host: process.env.PG_HOST ?? '127.0.0.1', user: process.env.PG_USER ?? 'postgres', database: 'postgres' });
  const database = `replay_${Date.now()}_${process.pid}`;
  let madeDatabase = false;
  try {
    const stages = readStages();
    const runtime = await replayStage(stages, stages.some((stage) => stage.name === 'runtime') ? 'runtime' : stages.at(-1)!.name, base, new Map());
    if (!runtime.user || /^(root|0)(:|$)/.test(runtime.user)) throw new ReplayError(`the runtime stage's USER is ${runtime.user ?? 'not set'}: the service would run as root`);
    const deps = join(runtime.paths.path(runtime.workdir), 'node_modules');
    say(`   node_modules of the image: ${execFileSync('du', ['-sh', deps], { encoding: 'utf8' }).split('\t')[0]}`);

    // The replay user's home and /tmp, as the image gives them.
    const home = join(base, 'home');
    const temporary = join(base, 'tmp');
    await mkdir(home);
    await chown(home, REPLAY_USER.uid, REPLAY_USER.gid);
    await mkdir(temporary);
    await chmod(temporary, 0o1777);
    // The image's node is /usr/local/bin/node; this one's lies in the project, which the replay
    // user may not be able to enter: a copy stands in.
    const imageBin = join(base, 'usr-local-bin');
    await mkdir(imageBin);
    await cp(process.execPath, join(imageBin, 'node'));
    await chmod(join(imageBin, 'node'), 0o755);
    const env: Record<string, string> = {
      ...mapEnv(runtime.env, runtime.paths),
      PATH: `${imageBin}:${IMAGE_PATH}`,
      HOME: home,
      TMPDIR: temporary,
      // Not on the network of the machine running this.
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      ADMIN_API_KEY: randomBytes(24).toString('base64url'),
    };
    const chromePath = await chromiumHere(env.CHROME_PATH, join(base, 'chromium'));
    if (chromePath) env.CHROME_PATH = chromePath;

    const command = imageCommand(runtime);
    const results = [await serve(runtime, command, 'PGlite', env)];

    await admin.connect();
    await admin.query(`create database "${database}"`);
    madeDatabase = true;
    const url = `postgres://${process.env.PG_USER ?? 'postgres'}@${process.env.PG_HOST ?? '127.0.0.1'}:5432/${database}`;
    results.push(await serve(runtime, command, 'PostgreSQL', { ...env, DATABASE_URL: url, PORT: String(await freePort()) }));

    results.push(await scanOnce(runtime, env));
    return results;
  } finally {
    if (madeDatabase) await admin.query(`drop database if exists "${database}" with (force)`).catch(() => {});
    await admin.end().catch(() => {});
    if (process.env.REPLAY_KEEP === '1') say(`(kept ${base})`);
    else {
      const since = performance.now();
      await rm(base, { recursive: true, force: true });
      say(`(removed ${base} in ${seconds(since)})`);
    }
  }
}

try {
  const results = await main();
  say(`replay of the image's runtime stage as ${REPLAY_USER.name}: ${results.join(', ')}, in ${seconds()}`);
} catch (error) {
  const message = error instanceof ReplayError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`replay of the image's runtime stage as ${REPLAY_USER.name} FAILED after ${seconds()}: ${message}`);
  process.exitCode = 1;
}
