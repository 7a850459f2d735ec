/** The benchmark's statistics: how sure a median ratio over rounds is (bench/lib/stats.ts). */
import { describe, expect, it } from 'vitest';
import { medianIntervalRank, spreadOf, withinSpread } from '../bench/lib/stats.ts';

/** P(x(k) ≤ median ≤ x(n+1-k)) for n rounds, summed from the binomial distribution. */
function coverage(n: number, k: number): number {
  let below = 0;
  for (let i = 0; i < k; i++) {
    let choose = 1;
    for (let j = 0; j < i; j++) choose = (choose * (n - j)) / (j + 1);
    below += choose / 2 ** n;
  }
  return 1 - 2 * below;
}

describe('the 95 % interval of a median over rounds', () => {
  it('takes the widest-shedding pair of rounds that still covers the median with 95 % confidence', () => {
    for (let n = 6; n <= 40; n++) {
      const k = medianIntervalRank(n);
      expect(coverage(n, k), `n = ${n}, k = ${k}`).toBeGreaterThanOrEqual(0.95);
      expect(coverage(n, k + 1), `n = ${n}, k + 1 = ${k + 1}`).toBeLessThan(0.95);
    }
    // The published table (e.g. Conover, Practical Nonparametric Statistics): 9 rounds shed one at each end, 12 two, 15 three.
    expect([5, 8, 9, 12, 15].map(medianIntervalRank)).toEqual([1, 1, 2, 3, 4]);
  });

  it('narrows as rounds are added while the range of the rounds widens', () => {
    const noisy = [1.0, 1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1.4, 1.0, 0.6, 1.01, 0.99, 1.0, 1.02, 0.98];
    const early = spreadOf(noisy.slice(0, 5));
    const late = spreadOf(noisy);
    expect(withinSpread(early)).toBe(true);
    // Up to 8 rounds the interval is the range, so one stray round decides it; from 9 on one round at each end is shed.
    expect(withinSpread(spreadOf(noisy.slice(0, 8)))).toBe(false);
    expect(withinSpread(spreadOf(noisy.slice(0, 9)))).toBe(true);
    expect(late).toMatchObject({ median: 1.0, min: 0.6, max: 1.4, rounds: 15, low: 0.98, high: 1.02 });
    expect(withinSpread(late)).toBe(true);
  });
});
