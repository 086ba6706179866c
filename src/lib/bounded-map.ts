/**
 * Makes room in a map that may hold at most `maxKeys` keys: `expire` first drops the keys whose time is up; if the
 * map is still (nearly) full, the oldest keys go (a Map iterates in insertion order) rather than it growing without
 * bound. Down to 90%, so that a stream of new keys sweeps once per maxKeys/10 of them, not on every one.
 */
export function sweepBoundedMap<K>(map: Map<K, unknown>, maxKeys: number, expire: (key: K) => void): void {
  for (const key of map.keys()) expire(key);
  const target = Math.floor(maxKeys * 0.9);
  for (const key of map.keys()) {
    if (map.size <= target) break;
    map.delete(key);
  }
}
