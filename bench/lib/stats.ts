/** Small statistics of the benchmark's rounds, and how figures are printed. */

export const median = (values: number[]): number => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The q-quantile of measured times (nearest rank). */
export const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

export const fmt = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));

/**
 * A ratio measured once per round: its median, the range the rounds spanned, and a distribution-free
 * 95 % confidence interval of the median (order statistics: the k-th smallest and k-th largest
 * round, k as large as keeps the chance that the true median lies between them ≥ 95 %). The range
 * widens as rounds are added; the interval narrows, which is what more rounds buy. Below 6 rounds
 * no pair of rounds reaches 95 % and the interval is the range (93.75 % at 5).
 */
export type Spread = { median: number; min: number; max: number; rounds: number; low: number; high: number };

/** The largest k (≥ 1) for which [x(k), x(n+1-k)] covers the median with ≥ 95 % confidence. */
export function medianIntervalRank(n: number): number {
  let k = 1;
  // P(x(k) ≤ median ≤ x(n+1-k)) = 1 − 2·P(Binomial(n, ½) ≤ k − 1)
  let below = 0;
  let choose = 1; // C(n, i)
  for (let i = 0; i < n; i++) {
    below += choose / 2 ** n;
    if (1 - 2 * below < 0.95) break;
    k = i + 1;
    choose = (choose * (n - i)) / (i + 1);
  }
  return k;
}

export const spreadOf = (values: number[]): Spread => {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b);
  const k = medianIntervalRank(sorted.length);
  return {
    median: median(sorted),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
    rounds: sorted.length,
    low: sorted[k - 1] ?? Number.NaN,
    high: sorted[sorted.length - k] ?? Number.NaN,
  };
};

/** Whether the median's 95 % interval lies within ±`margin` of it. */
export const withinSpread = (spread: Spread, margin = 0.1) => spread.high - spread.median <= margin && spread.median - spread.low <= margin;

/** "0.82 (0.78–0.86; rounds 0.70–0.90, 9)": the median, its 95 % interval, the rounds' range and count. */
export const fmtSpread = (spread: Spread | undefined, digits = 2) =>
  spread === undefined || Number.isNaN(spread.median)
    ? '–'
    : `${fmt(spread.median, digits)} (${fmt(spread.low, digits)}–${fmt(spread.high, digits)}; rounds ${fmt(spread.min, digits)}–${fmt(spread.max, digits)}, ${spread.rounds})`;
