import type { MikroORM } from '@mikro-orm/postgresql';
import { type AppServices, createRequestContext } from '../../../kernel/context.ts';
import { conflict, notFound, rateLimited, ServiceError } from '../../../kernel/errors.ts';
import { createDomain } from '../../domains/domain.operations.ts';
import { refusalOf, type SitePage } from './site-host.ts';

/**
 * `autoCreateDomains` (CCM19: "Automatische Domain Erstellung"): a client's key-less snippet
 * `/app.js?client=<id>` names no domain; the page it runs on does. A page of a host the client has
 * no domain for gets one, created as the client's own key would create it, so `domainMaxCount`
 * binds. What a key-less request may cost is bounded:
 *
 * - only for an active client with the switch on, and only for a plausible site (site-host.ts);
 * - at most `perHour` domains an hour per client (this process), and never more than `ceiling`
 *   domains in all when the quota is unlimited (-1);
 * - which page maps to which domain, and which pages were refused, is remembered for `ttlMs`
 *   (at most `remembered` pairs), so repeated loads cost no statement; concurrent first loads of
 *   one page share one creation.
 */
export type AutoCreateLimits = { perHour: number; ceiling: number; ttlMs: number; remembered: number };

export const AUTO_CREATE_LIMITS: AutoCreateLimits = { perHour: 10, ceiling: 100, ttlMs: 60_000, remembered: 10_000 };

type Outcome = { domainId: string } | { error: ServiceError };
type Remembered = { outcome: Outcome; until: number };

type Found = { active: boolean; auto_create_domains: boolean; domain_max_count: number; domains: number; domain_id: string | null };

const FIND = `select c."active", c."auto_create_domains", c."domain_max_count",
  (select count(*) from "domain" d where d."client_id" = c."id")::int as "domains",
  (select d."id" from "domain" d where d."client_id" = c."id" and d."host" = ? order by d."path", d."created_at" limit 1) as "domain_id"
  from "client" c where c."id" = ?`;

export type DomainAutoCreator = {
  /** The domain of `clientId` the snippet on `page` loads: found, or created when allowed. */
  domainFor(clientId: string, page: SitePage): Promise<Outcome>;
};

export function createDomainAutoCreator(orm: MikroORM, services: AppServices, limits: AutoCreateLimits = AUTO_CREATE_LIMITS): DomainAutoCreator {
  const memory = new Map<string, Remembered>();
  const pending = new Map<string, Promise<Outcome>>();
  const created = new Map<string, number[]>();
  const serviceHost = hostOf(services.publicBaseUrl);

  const remember = (key: string, outcome: Outcome) => {
    if (memory.size >= limits.remembered) memory.delete(memory.keys().next().value!);
    memory.set(key, { outcome, until: Date.now() + limits.ttlMs });
    return outcome;
  };

  /** Takes one of the client's creations this hour, or says when the next one is free. */
  const takeCreation = (clientId: string): number | undefined => {
    const now = Date.now();
    const times = (created.get(clientId) ?? []).filter((time) => time > now - 3_600_000);
    if (times.length >= limits.perHour) return Math.ceil((times[0]! + 3_600_000 - now) / 1000);
    times.push(now);
    created.set(clientId, times);
    return undefined;
  };

  async function resolve(clientId: string, page: SitePage): Promise<Outcome> {
    const em = orm.em.fork();
    const [client] = await em.execute<Found[]>(FIND, [page.host, clientId]);
    if (!client || !client.active || !client.auto_create_domains) {
      return { error: notFound(`client ${clientId} with autoCreateDomains on`) };
    }
    if (client.domain_id) return { domainId: client.domain_id };
    const refusal = refusalOf(page.host, serviceHost);
    if (refusal) return { error: notFound(`a domain for ${page.host} (not created by itself: ${refusal})`) };
    const max = client.domain_max_count === -1 ? limits.ceiling : Math.min(client.domain_max_count, limits.ceiling);
    if (client.domains >= max) {
      return { error: conflict(`the client may have at most ${max} domains (domainMaxCount, or ${limits.ceiling} created by themselves); no domain was created for ${page.host}`) };
    }
    const wait = takeCreation(clientId);
    if (wait !== undefined) return { error: rateLimited(`at most ${limits.perHour} domains an hour are created by themselves for one client`, wait) };
    // As the client's own key would create it (held to its quotas), made by no key: its revisions name the banner as maker.
    const caller = { kind: 'client', clientId, keyId: undefined as unknown as string, keyName: 'banner (autoCreateDomains)' } as const;
    const ctx = createRequestContext(orm, services, caller, `auto-create:${clientId}`);
    try {
      const domain = await createDomain(ctx, { clientId }, { name: `${page.scheme}://${page.host}/` });
      return { domainId: domain.id };
    } catch (error) {
      if (error instanceof ServiceError) return { error };
      throw error;
    }
  }

  return {
    async domainFor(clientId, page) {
      const key = `${clientId} ${page.host}`;
      const known = memory.get(key);
      if (known && known.until > Date.now()) return known.outcome;
      let running = pending.get(key);
      if (!running) {
        running = resolve(clientId, page)
          .then((outcome) => remember(key, outcome))
          .finally(() => pending.delete(key));
        pending.set(key, running);
      }
      return running;
    },
  };
}

function hostOf(address: string): string {
  try {
    return new URL(address).hostname;
  } catch {
    return '';
  }
}
