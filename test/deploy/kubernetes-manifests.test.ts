import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { type IJob, Job } from 'kubernetes-models/batch/v1/Job';
import { type IPodDisruptionBudget, PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import { type ISecret, Secret } from 'kubernetes-models/v1/Secret';
import { type IService, Service } from 'kubernetes-models/v1/Service';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadSettings, SECRET_SETTINGS, SETTING_NAMES, type Settings } from '../../src/config.ts';

/**
 * The Kubernetes manifests in deploy/kubernetes: every object valid by the Kubernetes schemas
 * (kubernetes-models, offline), the files as they are and, where kubectl is on PATH, as
 * `kubectl kustomize` renders them; and what the service needs from them — its probes, secrets
 * from mounted files, migrations by the Job, a grace period longer than its shutdown, settings
 * that config.ts knows and accepts.
 */

const DIR = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));
const EXAMPLE_SECRET_FILE = 'secret.example.yaml';
const API = 'consent-config-api';
const WORKER = 'consent-config-scan-worker';
const MIGRATION = 'consent-config-migrate';

type KubeObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> } };
type Kustomization = { resources: string[]; images: { name: string; newName: string; newTag: string }[] };

/**
 * Every document of a YAML stream. Read as YAML 1.1, as kubectl reads manifests: there `0440` is
 * octal and an unquoted `on` is true, so such a value shows as the wrong type here too.
 */
function parseYaml(text: string, source: string): unknown[] {
  return parseAllDocuments(text, { version: '1.1' })
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${source}: ${document.errors.map((error) => error.message).join('; ')}`);
      return document.toJS() as unknown;
    })
    .filter((value) => value !== null);
}

const readManifest = (file: string) => parseYaml(readFileSync(posix.join(DIR, file), 'utf8'), file) as KubeObject[];

const yamlFiles = readdirSync(DIR).filter((file) => file.endsWith('.yaml'));
const kustomization = parseYaml(readFileSync(posix.join(DIR, 'kustomization.yaml'), 'utf8'), 'kustomization.yaml')[0] as Kustomization;
const fileObjects = kustomization.resources.flatMap(readManifest);
const exampleSecret = readManifest(EXAMPLE_SECRET_FILE)[0] as ISecret & KubeObject;

/** The models whose validators hold the Kubernetes schema of each kind used here. */
const MODELS: Record<string, { prototype: { validate(): void } }> = {
  'v1 ConfigMap': ConfigMap,
  'v1 Secret': Secret,
  'v1 Service': Service,
  'apps/v1 Deployment': Deployment,
  'batch/v1 Job': Job,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
};

/**
 * `value` behind proxies that note which fields are read. The validators compiled from the
 * Kubernetes schemas read every field their schema names, and every entry of a map, but pass
 * fields the schema does not name, which the API server then refuses (kubectl validates strictly).
 * A field nobody read is such a field: most likely a misspelt one.
 */
function noteReads(value: object): { tracked: object; unread: () => string[] } {
  const unreadKeys = new Map<string, Set<string>>();
  const proxies = new WeakMap<object, object>();
  const wrap = (target: unknown, path: string): unknown => {
    if (typeof target !== 'object' || target === null) return target;
    const known = proxies.get(target);
    if (known) return known;
    const keys = Array.isArray(target) ? undefined : new Set(Object.keys(target));
    if (keys) unreadKeys.set(path, keys);
    const proxy = new Proxy(target, {
      get(object, key, receiver) {
        const field = Reflect.get(object, key, receiver) as unknown;
        if (typeof key !== 'string') return field;
        keys?.delete(key);
        return wrap(field, `${path}/${key}`);
      },
      has(object, key) {
        if (typeof key === 'string') keys?.delete(key);
        return Reflect.has(object, key);
      },
    });
    proxies.set(target, proxy);
    return proxy;
  };
  return {
    tracked: wrap(value, '') as object,
    unread: () => [...unreadKeys].flatMap(([path, keys]) => [...keys].map((key) => `${path}/${key}`)),
  };
}

/** What the Kubernetes schema of its kind finds wrong with an object; a kind without a schema here is wrong too. */
function schemaProblems(object: KubeObject): string[] {
  const where = `${object.kind} ${object.metadata?.name ?? '(no name)'}`;
  const model = MODELS[`${object.apiVersion} ${object.kind}`];
  if (!model) return [`${where}: no schema for ${object.apiVersion} ${object.kind} here; add its model to MODELS`];
  const { tracked, unread } = noteReads(object);
  const problems: string[] = [];
  try {
    model.prototype.validate.call(tracked);
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
  }
  return [...problems, ...unread().map((path) => `${where}: ${path} is not a field of ${object.apiVersion} ${object.kind}`)];
}

function kubectlAvailable(): boolean {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  return probe.status === 0;
}

function render(): KubeObject[] {
  const rendered = spawnSync('kubectl', ['kustomize', DIR], { encoding: 'utf8' });
  if (rendered.status !== 0) throw new Error(`kubectl kustomize ${DIR} failed: ${rendered.stderr}`);
  return parseYaml(rendered.stdout, 'kubectl kustomize') as KubeObject[];
}

// ── reading the objects ──

function find<T>(objects: KubeObject[], kind: string, name: string): T & KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among the manifests`);
  return found as T & KubeObject;
}

type Workload = { name: string; pod: IPodSpec; podLabels: Record<string, string>; replicas: number };

function workloads(objects: KubeObject[]): Workload[] {
  return objects.flatMap((object) => {
    if (object.kind !== 'Deployment' && object.kind !== 'Job') return [];
    const { spec } = object as (IDeployment | IJob) & KubeObject;
    const replicas = object.kind === 'Deployment' ? ((spec as IDeployment['spec'])?.replicas ?? 1) : 1;
    return [{ name: object.metadata.name, pod: spec!.template.spec!, podLabels: spec!.template.metadata?.labels ?? {}, replicas }];
  });
}

const workload = (objects: KubeObject[], name: string) => workloads(objects).find((candidate) => candidate.name === name)!;
const onlyContainer = (pod: IPodSpec) => {
  expect(pod.containers).toHaveLength(1);
  return pod.containers[0]!;
};
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The environment a container starts with: its ConfigMaps' entries, then its own `env` over them. */
function environmentOf(objects: KubeObject[], container: IContainer): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    expect(source.secretRef, `${container.name}: secrets come from files, not envFrom`).toBeUndefined();
    Object.assign(environment, find<IConfigMap>(objects, 'ConfigMap', source.configMapRef!.name!).data);
  }
  for (const variable of container.env ?? []) {
    expect(variable.valueFrom, `${container.name}: ${variable.name} uses valueFrom; settings are values, secrets are files`).toBeUndefined();
    environment[variable.name] = variable.value ?? '';
  }
  return environment;
}

const secretFileVariables = new Set<string>(SECRET_SETTINGS.map((name) => `${name}_FILE`));

/** The settings config.ts reads from that environment; the secret files are not there to read in a test. */
function settingsOf(environment: Record<string, string>): Settings {
  return loadSettings(Object.fromEntries(Object.entries(environment).filter(([name]) => !secretFileVariables.has(name))));
}

/** The files the container sees from mounted Secret volumes: path → the Secret and its key. */
function secretFiles(pod: IPodSpec, container: IContainer): Map<string, { secret: string; key: string; readOnly: boolean }> {
  const files = new Map<string, { secret: string; key: string; readOnly: boolean }>();
  for (const mount of container.volumeMounts ?? []) {
    const source = pod.volumes?.find((volume) => volume.name === mount.name)?.secret;
    if (!source) continue;
    const items = source.items ?? Object.keys({ ...exampleSecret.data, ...exampleSecret.stringData }).map((key) => ({ key, path: key }));
    for (const item of items) {
      files.set(posix.join(mount.mountPath, item.path), { secret: source.secretName!, key: item.key, readOnly: mount.readOnly === true });
    }
  }
  return files;
}

/** The port number a probe reaches, by name or number. */
function probePort(container: IContainer, probe: IProbe | undefined): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

const UNITS: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40 };

function quantity(value: string | number | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi|Ti)?$/.exec(String(value));
  if (!match) throw new Error(`${String(value)} is not a quantity this test reads`);
  return Number(match[1]) * UNITS[match[2] ?? '']!;
}

// ── what every rendering of the manifests must hold ──

function contract(objects: () => KubeObject[]) {
  it('every object is valid by the Kubernetes schema of its kind, with no field the schema does not know', () => {
    expect(objects().flatMap(schemaProblems)).toEqual([]);
  });

  it('every variable set is a setting of config.ts, with a value it accepts', () => {
    const known = new Set([...SETTING_NAMES, ...secretFileVariables]);
    for (const { name, pod } of workloads(objects())) {
      for (const container of pod.containers) {
        const environment = environmentOf(objects(), container);
        expect(Object.keys(environment).filter((variable) => !known.has(variable)), `${name}: unknown variables`).toEqual([]);
        expect(() => settingsOf(environment), name).not.toThrow();
      }
    }
  });

  it('every secret setting comes from a *_FILE path inside a Secret mounted read-only, never from a value', () => {
    const secretKeys = Object.keys({ ...exampleSecret.data, ...exampleSecret.stringData });
    for (const { name, pod } of workloads(objects())) {
      for (const container of pod.containers) {
        const environment = environmentOf(objects(), container);
        const files = secretFiles(pod, container);
        for (const setting of SECRET_SETTINGS) {
          expect(environment[setting], `${name}: ${setting} given as a value`).toBeUndefined();
          const path = environment[`${setting}_FILE`];
          if (path === undefined) continue;
          const file = files.get(path);
          expect(file, `${name}: ${setting}_FILE ${path} is no file of a mounted Secret`).toBeDefined();
          expect(file!.readOnly, `${name}: the Secret is mounted read-only`).toBe(true);
          expect(file!.secret, `${name}: the Secret of secret.example.yaml`).toBe(exampleSecret.metadata.name);
          expect(secretKeys, `${name}: secret.example.yaml has the key ${file!.key}`).toContain(file!.key);
        }
      }
    }
    const variablesOf = (workloadName: string) => Object.keys(environmentOf(objects(), onlyContainer(workload(objects(), workloadName).pod)));
    expect(variablesOf(API)).toEqual(expect.arrayContaining(['DATABASE_URL_FILE', 'ADMIN_API_KEY_FILE']));
    expect(variablesOf(WORKER)).toContain('DATABASE_URL_FILE');
    expect(variablesOf(MIGRATION)).toContain('DATABASE_URL_FILE');
  });

  it('the API serves, probed at /healthz and /readyz on its port, and leaves migrations and queued scans to others', () => {
    const { pod } = workload(objects(), API);
    const container = onlyContainer(pod);
    const settings = settingsOf(environmentOf(objects(), container));
    expect(container.args).toEqual(['node', 'bin/consent-config.js', 'serve']);
    expect(settings.host).toBe('0.0.0.0');
    expect(container.ports?.map((port) => port.containerPort)).toContain(settings.port);
    expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      expect(probePort(container, probe)).toBe(settings.port);
    }
    expect(settings.migrateOnStart).toBe(false);
    expect(settings.scan.worker).toBe(false);
    expect(settings.environment).toBe('production');
  });

  it('the API may wait for the Job\'s migrations before it listens: the startup probe allows MIGRATION_WAIT_SECONDS', () => {
    const container = onlyContainer(workload(objects(), API).pod);
    const settings = settingsOf(environmentOf(objects(), container));
    const probe = container.startupProbe!;
    const allowedSeconds = (probe.initialDelaySeconds ?? 0) + (probe.periodSeconds ?? 10) * (probe.failureThreshold ?? 3);
    expect(allowedSeconds).toBeGreaterThan(settings.migrationWaitMs / 1000);
  });

  it('the API outlasts its shutdown: the grace period is longer than SHUTDOWN_DELAY_MS and SHUTDOWN_TIMEOUT_MS together', () => {
    const { pod } = workload(objects(), API);
    const settings = settingsOf(environmentOf(objects(), onlyContainer(pod)));
    expect(settings.shutdownDelayMs, 'a delay for the endpoints to drop the pod').toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan((settings.shutdownDelayMs + settings.shutdownTimeoutMs) / 1000);
  });

  it('the scan workers run scan-worker on PostgreSQL, probed on SCAN_WORKER_PORT, and let a running scan end', () => {
    const { pod } = workload(objects(), WORKER);
    const container = onlyContainer(pod);
    const environment = environmentOf(objects(), container);
    const settings = settingsOf(environment);
    expect(container.args).toEqual(['node', 'bin/consent-config.js', 'scan-worker']);
    expect(environment.DATABASE_URL_FILE, 'scan-worker needs DATABASE_URL').toBeDefined();
    expect(settings.scanWorkerPort).toBeGreaterThan(0);
    expect(container.ports?.map((port) => port.containerPort)).toContain(settings.scanWorkerPort);
    expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
      expect(probePort(container, probe)).toBe(settings.scanWorkerPort);
    }
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan((settings.scan.totalTimeoutMs + settings.shutdownTimeoutMs) / 1000);
  });

  it('the Job runs `migrate` and nothing else, tries again a few times and is cleaned up', () => {
    const job = find<IJob>(objects(), 'Job', MIGRATION);
    const container = onlyContainer(job.spec!.template.spec!);
    expect(container.args).toEqual(['node', 'bin/consent-config.js', 'migrate']);
    expect(job.spec!.backoffLimit).toBeGreaterThan(0);
    expect(job.spec!.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
  });

  it('every container asks for CPU and memory and has limits no lower', () => {
    for (const { name, pod } of workloads(objects())) {
      for (const container of pod.containers) {
        const requests = container.resources?.requests ?? {};
        const limits = container.resources?.limits ?? {};
        for (const resource of ['cpu', 'memory']) {
          expect(requests[resource], `${name}: requests.${resource}`).toBeDefined();
          expect(limits[resource], `${name}: limits.${resource}`).toBeDefined();
          expect(quantity(limits[resource]), `${name}: ${resource}`).toBeGreaterThanOrEqual(quantity(requests[resource]));
        }
      }
    }
  });

  it('every container runs the image\'s entrypoint as user node (1000), unprivileged, on a read-only root with a writable /tmp', () => {
    for (const { name, pod } of workloads(objects())) {
      for (const container of pod.containers) {
        expect(container.command, `${name}: args, so that the image's entrypoint (tini) stays`).toBeUndefined();
        const context = { ...pod.securityContext, ...container.securityContext };
        // Chromium's sandbox needs namespaces RuntimeDefault refuses; nothing else goes without it.
        expect(name === API || name === WORKER ? ['RuntimeDefault', 'Unconfined'] : ['RuntimeDefault'], name).toContain(context.seccompProfile?.type);
        expect(context.runAsNonRoot, name).toBe(true);
        expect(context.runAsUser, name).toBe(1000);
        expect(container.securityContext?.allowPrivilegeEscalation, name).toBe(false);
        expect(container.securityContext?.capabilities?.drop, name).toEqual(['ALL']);
        expect(container.securityContext?.readOnlyRootFilesystem, name).toBe(true);
        const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
        expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir, `${name}: an emptyDir at /tmp`).toBeDefined();
      }
    }
  });

  it('the Service and a PodDisruptionBudget select the API pods and no others; workers in replicas have a budget too', () => {
    const all = workloads(objects());
    const selected = (selector: Record<string, string>) => all.filter(({ podLabels }) => matches(selector, podLabels)).map(({ name }) => name);
    const service = find<IService>(objects(), 'Service', 'consent-config');
    expect(selected(service.spec!.selector!)).toEqual([API]);
    const apiContainer = onlyContainer(workload(objects(), API).pod);
    expect(apiContainer.ports?.map((port) => port.name)).toContain(service.spec!.ports![0]!.targetPort);
    const budgets = objects()
      .filter((object) => object.kind === 'PodDisruptionBudget')
      .map((object) => selected((object as IPodDisruptionBudget & KubeObject).spec!.selector!.matchLabels!));
    for (const budget of budgets) expect(budget).toHaveLength(1);
    expect(budgets).toContainEqual([API]);
    if (workload(objects(), WORKER).replicas > 1) expect(budgets).toContainEqual([WORKER]);
  });
}

// ── the tests ──

describe('the schema check', () => {
  const api = () => structuredClone(find<IDeployment>(fileObjects, 'Deployment', API));

  it('finds a misspelt field, a value of the wrong type and a kind it has no schema for', () => {
    expect(schemaProblems(api())).toEqual([]);
    const misspelt = api() as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    misspelt.spec.template.spec.containers[0]!.readinesProbe = { httpGet: { path: '/readyz', port: 'http' } };
    expect(schemaProblems(misspelt as unknown as KubeObject)).toEqual([
      `Deployment ${API}: /spec/template/spec/containers/0/readinesProbe is not a field of apps/v1 Deployment`,
    ]);
    const wrongType = api() as unknown as { spec: { replicas: unknown } };
    wrongType.spec.replicas = 'two';
    expect(schemaProblems(wrongType as unknown as KubeObject).join()).toContain('/spec/replicas');
    expect(schemaProblems({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toEqual([
      'Pod x: no schema for v1 Pod here; add its model to MODELS',
    ]);
  });
});

describe('deploy/kubernetes', () => {
  it('the kustomization lists every manifest but the example Secret, and the Secret is nowhere else', () => {
    const manifests = yamlFiles.filter((file) => file !== 'kustomization.yaml' && file !== EXAMPLE_SECRET_FILE);
    expect([...kustomization.resources].sort()).toEqual(manifests.sort());
    expect(fileObjects.filter((object) => object.kind === 'Secret')).toEqual([]);
  });

  it('the example Secret is a valid Secret holding every secret setting, in a form config.ts accepts', () => {
    expect(schemaProblems(exampleSecret)).toEqual([]);
    const values = { ...exampleSecret.data, ...exampleSecret.stringData };
    expect(Object.keys(values).sort()).toEqual([...SECRET_SETTINGS].sort());
    expect(() => loadSettings(values)).not.toThrow();
  });

  it('every container runs the image the kustomization replaces', () => {
    const placeholders = new Set(kustomization.images.map((image) => image.name));
    for (const { name, pod } of workloads(fileObjects)) {
      for (const container of pod.containers) expect(placeholders, name).toContain(container.image);
    }
  });

  contract(() => fileObjects);
});

const kubectlOnPath = kubectlAvailable();

describe.skipIf(!kubectlOnPath)(
  kubectlOnPath ? 'deploy/kubernetes rendered by kubectl kustomize' : 'deploy/kubernetes rendered by kubectl kustomize: skipped, kubectl is not on PATH',
  () => {
    let rendered: KubeObject[] = [];
    beforeAll(() => {
      rendered = render();
    });

    it('renders the objects of the files, each container with the image the kustomization names', () => {
      const names = (objects: KubeObject[]) => objects.map((object) => `${object.kind} ${object.metadata.name}`).sort();
      expect(names(rendered)).toEqual(names(fileObjects));
      const images = new Set(kustomization.images.map((image) => `${image.newName}:${image.newTag}`));
      for (const { name, pod } of workloads(rendered)) {
        for (const container of pod.containers) expect(images, name).toContain(container.image);
      }
    });

    contract(() => rendered);
  },
);
