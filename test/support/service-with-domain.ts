import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Client, createClient, createDomain, type DomainPath } from './fixtures.ts';
import { startTestService, type TestService, type TestServiceOptions } from './service.ts';

/**
 * The set-up most suites share: a test service, and an active client with one domain made
 * through the REST API. Requests go as the administrator (`service.as(key)` for another key).
 */
export type ServiceWithDomain = {
  service: TestService;
  client: Client;
  /** The domain's ids and REST prefix (`domain.base`). */
  domain: DomainPath;
};

export type ServiceWithDomainOptions = {
  /** Passed to startTestService. */
  service?: TestServiceOptions;
  /** The name the domain is created with (default: createDomain's). */
  domainName?: string;
};

/** Starts the service and creates the client and its domain; the caller closes `service`. */
export async function startServiceWithDomain(options: ServiceWithDomainOptions = {}): Promise<ServiceWithDomain> {
  const service = await startTestService(options.service);
  try {
    return { service, ...(await clientWithDomain(service, options.domainName)) };
  } catch (error) {
    await service.close();
    throw error;
  }
}

/**
 * The same, for a test file or a describe block, through vitest hooks: the service starts before
 * its first test and closes after its last; every test gets a client and domain of its own
 * (`domainPer: 'test'`, the default), or all share one (`'suite'`).
 *
 * What it returns are live views of the current service, client and domain, so a suite can
 * destructure them once at the top: read them inside tests, hooks and the functions they call.
 */
export function useServiceWithDomain(options: ServiceWithDomainOptions & { domainPer?: 'test' | 'suite' } = {}): ServiceWithDomain {
  let service: TestService | undefined;
  let current: Omit<ServiceWithDomain, 'service'> | undefined;
  const started = () => service ?? notYet('service');
  const created = () => current ?? notYet('client and domain');

  beforeAll(async () => {
    service = await startTestService(options.service);
    if (options.domainPer === 'suite') current = await clientWithDomain(service, options.domainName);
  });
  afterAll(() => service?.close());
  if (options.domainPer !== 'suite') {
    beforeEach(async () => {
      current = await clientWithDomain(started(), options.domainName);
    });
  }

  return {
    service: {
      get baseUrl() {
        return started().baseUrl;
      },
      get database() {
        return started().database;
      },
      get services() {
        return started().services;
      },
      get databaseUrl() {
        return started().databaseUrl;
      },
      rest: (method, path, body) => started().rest(method, path, body),
      raw: (request) => started().raw(request),
      graphql: (query, variables) => started().graphql(query, variables),
      as: (key) => started().as(key),
      close: () => started().close(),
    },
    client: {
      get id() {
        return created().client.id;
      },
      get username() {
        return created().client.username;
      },
    },
    domain: {
      get clientId() {
        return created().domain.clientId;
      },
      get domainId() {
        return created().domain.domainId;
      },
      get base() {
        return created().domain.base;
      },
    },
  };
}

async function clientWithDomain(service: TestService, domainName?: string): Promise<Omit<ServiceWithDomain, 'service'>> {
  const client = await createClient(service);
  const domain = await createDomain(service, domainName, { clientId: client.id });
  // Its first revision is stored after the answer: a test starts with no round running.
  await service.services.revisions.drain();
  return { client, domain };
}

function notYet(what: string): never {
  throw new Error(`useServiceWithDomain: no ${what} yet; read it inside tests and hooks, not while the file is collected`);
}
