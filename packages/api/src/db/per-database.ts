/**
 * What an API process keeps beside a database (a cache, an index): made on first use for each
 * database object and dropped with it, so servers on databases of their own (tests) never share.
 */
export function perDatabase<K extends object, T>(create: (key: K) => T): (key: K) => T {
  const kept = new WeakMap<K, T>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = create(key);
      kept.set(key, value);
    }
    return value;
  };
}
