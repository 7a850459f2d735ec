import { Histogram, type HistogramConfiguration } from 'prom-client';

type Label = 'method' | 'route' | 'status';

/** A histogram's series as prom-client's registry reads them: `le` apart from the series' own labels. */
type Exported = { values: { labels: Record<string, string | number>; sharedLabels: Record<string, string>; value: number; metricName: string }[] };

type Series = {
  labels: Record<Label, string>;
  /** Observations per bucket (not cumulative); the last counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
};

/**
 * The histogram of HTTP requests by method, route and status. prom-client checks and hashes the
 * labels of every observation, which costs as much as a whole warm banner load; here a series is
 * found by three map lookups (routes are templates, so there are few) and recorded by a walk over
 * the buckets. prom-client still formats it for the scrape.
 */
export class RequestHistogram extends Histogram<Label> {
  readonly #name: string;
  readonly #bounds: readonly number[];
  // Not a #private field: prom-client's constructor calls reset() before this class's fields exist.
  private readonly series: Map<string, Map<number, Map<string, Series>>> = new Map();

  constructor(configuration: HistogramConfiguration<Label> & { buckets: number[] }) {
    super(configuration);
    this.#name = configuration.name;
    this.#bounds = [...configuration.buckets].sort((a, b) => a - b);
  }

  record(method: string, route: string, status: number, seconds: number): void {
    let byStatus = this.series.get(method);
    if (!byStatus) this.series.set(method, (byStatus = new Map()));
    let byRoute = byStatus.get(status);
    if (!byRoute) byStatus.set(status, (byRoute = new Map()));
    let series = byRoute.get(route);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
      byRoute.set(route, series);
    }
    let bucket = 0;
    while (bucket < this.#bounds.length && seconds > this.#bounds[bucket]!) bucket++;
    series.counts[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /**
   * What prom-client's registry formats a histogram from (its get() builds on it too; the method
   * is missing from prom-client's type declarations): its own series, then these.
   */
  async getForPromString(): Promise<Exported> {
    const own = (Histogram.prototype as unknown as { getForPromString(this: Histogram<Label>): Promise<Exported> }).getForPromString;
    const data = await own.call(this);
    const name = this.#name;
    for (const byStatus of this.series.values())
      for (const byRoute of byStatus.values())
        for (const { labels, counts, sum, count } of byRoute.values()) {
          let cumulative = 0;
          this.#bounds.forEach((bound, bucket) => {
            cumulative += counts[bucket]!;
            data.values.push({ labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` });
          });
          data.values.push(
            { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket` },
            { labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` },
            { labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` },
          );
        }
    return data;
  }

  override reset(): void {
    super.reset();
    this.series?.clear();
  }
}
