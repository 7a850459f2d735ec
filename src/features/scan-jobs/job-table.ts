import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScanJobError, ScanJobStatus } from './scan-job.contract.ts';

/**
 * The statements of a table of jobs, in SQL: `scan_job` and the compliance feature's
 * `compliance_scan`. A row per job of a domain, with the columns of `JobRecord`, a `result` and
 * columns of its own. A running job writes its progress many times and from processes that have no
 * request, so these are single statements rather than unit-of-work flushes; each call is one.
 */

/** The columns every job table has, as a row reads. */
export type JobRecord<Trigger extends string> = {
  id: string;
  domain_id: string;
  trigger: Trigger;
  status: ScanJobStatus;
  url: string;
  requested_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
  attempts: number;
  worker: string | null;
  error: ScanJobError | string | null;
};

/** The fields of `JobRecord` in a job's answer. */
export type JobSummaryFields<Trigger extends string> = {
  id: string;
  domainId: string;
  trigger: Trigger;
  status: ScanJobStatus;
  url: string;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  attempts: number;
  worker: string | null;
  error: ScanJobError | null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A `json`/`jsonb` column's value (a string where the driver does not parse it). */
export const parsedJson = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/** A row's `JobRecord` columns as the answer's fields (ISO times, the error parsed). */
export function jobSummaryOf<Trigger extends string>(row: JobRecord<Trigger>): JobSummaryFields<Trigger> {
  return {
    id: row.id,
    domainId: row.domain_id,
    trigger: row.trigger,
    status: row.status,
    url: row.url,
    requestedAt: iso(row.requested_at)!,
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    attempts: row.attempts,
    worker: row.worker,
    error: row.error === null ? null : parsedJson(row.error),
  };
}

export type JobTable<Row extends JobRecord<string>, Summary, Job> = {
  /** Stores a queued job; `own`: values of the table's own columns. */
  insert(em: EntityManager, job: { id: string; domainId: string; trigger: Row['trigger']; url: string }, own?: Partial<Row>): Promise<Job>;
  /** The job, if it is one of the domain's. */
  find(em: EntityManager, domainId: string, id: string): Promise<Job | undefined>;
  /** The domain's jobs, newest first, requested before `before` (a job id) if given. */
  list(em: EntityManager, domainId: string, page: { before?: string; limit: number }): Promise<Summary[]>;
  /** The domain's latest succeeded job requested before the given one. */
  previousSucceeded(em: EntityManager, domainId: string, job: { id: string; requestedAt: string }): Promise<Job | undefined>;
  /** A queued or running job of the domain, if any (one runs at a time per domain). */
  unfinishedOf(em: EntityManager, domainId: string): Promise<Summary | undefined>;
  /**
   * Takes the job for a run: running, one more attempt (and what the table's `claimResets`).
   * Nothing when it has already ended (a duplicate delivery) or no longer exists (its domain was
   * deleted).
   */
  claim(em: EntityManager, id: string, worker: string): Promise<Job | undefined>;
  /** Ends the job as succeeded with the values of `own` (its result among them); its error is cleared. */
  succeed(em: EntityManager, id: string, own: Partial<Row>): Promise<void>;
  /** Ends the job as failed with `error` (and the values of `own`), unless it has ended already. */
  fail(em: EntityManager, id: string, error: ScanJobError, own?: Partial<Row>): Promise<void>;
};

/**
 * The statements of the job table `table`: `summaryColumns` are what a list reads (every column
 * but `result`), `toSummary` and `toJob` map a row read with those or with all columns.
 */
export function jobTable<Row extends JobRecord<string> & { result?: unknown }, Summary, Job>({
  table,
  summaryColumns,
  toSummary,
  toJob,
  claimResets = [],
}: {
  table: string;
  summaryColumns: readonly (keyof Row & string)[];
  toSummary: (row: Row) => Summary;
  toJob: (row: Row) => Job;
  /** Columns a claim sets back, with their SQL value (`"pages" = '[]'`: a new run starts without pages). */
  claimResets?: readonly string[];
}): JobTable<Row, Summary, Job> {
  const name = quoted(table);
  const SUMMARY_COLUMNS = summaryColumns.map(quoted).join(', ');
  const ALL_COLUMNS = `${SUMMARY_COLUMNS}, "result"`;
  const assignments = (own: Partial<Row>) => Object.keys(own).map((column) => `, ${quoted(column)} = ?`).join('');

  return {
    async insert(em, job, own = {}) {
      const columns = Object.keys(own).map((column) => `, ${quoted(column)}`).join('');
      const [row] = await em.execute<Row[]>(
        `insert into ${name} ("id", "domain_id", "trigger", "status", "url"${columns}) values (?, ?, ?, 'queued', ?${', ?'.repeat(Object.keys(own).length)}) returning ${ALL_COLUMNS}`,
        [job.id, job.domainId, job.trigger, job.url, ...Object.values(own)],
      );
      return toJob(row!);
    },

    async find(em, domainId, id) {
      const [row] = await em.execute<Row[]>(`select ${ALL_COLUMNS} from ${name} where "id" = ? and "domain_id" = ?`, [id, domainId]);
      return row && toJob(row);
    },

    async list(em, domainId, { before, limit }) {
      const rows = await em.execute<Row[]>(
        `select ${SUMMARY_COLUMNS} from ${name} where "domain_id" = ?` +
          (before ? ` and ("requested_at", "id") < (select "requested_at", "id" from ${name} where "id" = ? and "domain_id" = ?)` : '') +
          ` order by "requested_at" desc, "id" desc limit ?`,
        before ? [domainId, before, domainId, limit] : [domainId, limit],
      );
      return rows.map(toSummary);
    },

    async previousSucceeded(em, domainId, job) {
      const [row] = await em.execute<Row[]>(
        `select ${ALL_COLUMNS} from ${name} where "domain_id" = ? and "status" = 'succeeded' and ("requested_at", "id") < (?::timestamptz, ?::uuid) ` +
          `order by "requested_at" desc, "id" desc limit 1`,
        [domainId, job.requestedAt, job.id],
      );
      return row && toJob(row);
    },

    async unfinishedOf(em, domainId) {
      const [row] = await em.execute<Row[]>(
        `select ${SUMMARY_COLUMNS} from ${name} where "domain_id" = ? and "status" in ('queued', 'running') order by "requested_at" limit 1`,
        [domainId],
      );
      return row && toSummary(row);
    },

    async claim(em, id, worker) {
      const [row] = await em.execute<Row[]>(
        `update ${name} set "status" = 'running', "started_at" = clock_timestamp(), "attempts" = "attempts" + 1, "worker" = ?${claimResets.map((reset) => `, ${reset}`).join('')} ` +
          `where "id" = ? and "status" in ('queued', 'running') returning ${ALL_COLUMNS}`,
        [worker, id],
      );
      return row && toJob(row);
    },

    async succeed(em, id, own) {
      await em.execute(`update ${name} set "status" = 'succeeded', "finished_at" = clock_timestamp()${assignments(own)}, "error" = null where "id" = ?`, [
        ...Object.values(own),
        id,
      ]);
    },

    async fail(em, id, error, own = {}) {
      await em.execute(
        `update ${name} set "status" = 'failed', "finished_at" = clock_timestamp(), "error" = ?${assignments(own)} where "id" = ? and "status" in ('queued', 'running')`,
        [JSON.stringify(error), ...Object.values(own), id],
      );
    },
  };
}

const quoted = (identifier: string) => `"${identifier}"`;
