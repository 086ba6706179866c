// How the text budget's promise is checked from outside: no rolling window holds more slots than the budget.

/** The most slots (times in ms) any rolling window [t, t + w) holds. */
export function busiest(times: number[], w: number): number {
  const s = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (s[i]! - s[j]! >= w) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
