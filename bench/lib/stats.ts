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

/** A ratio measured once per round: its median and the range the rounds spanned. */
export type Spread = { median: number; min: number; max: number; rounds: number };

export const spreadOf = (values: number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
  rounds: values.length,
});

/** Whether every round lies within ±`margin` of the median. */
export const withinSpread = (spread: Spread, margin = 0.1) => spread.max - spread.median <= margin && spread.median - spread.min <= margin;

/** "0.82 (0.78–0.86)" */
export const fmtSpread = (spread: Spread | undefined, digits = 2) =>
  spread === undefined || Number.isNaN(spread.median) ? '–' : `${fmt(spread.median, digits)} (${fmt(spread.min, digits)}–${fmt(spread.max, digits)})`;
