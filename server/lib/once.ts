/**
 * A constant made on first use rather than at import: `make` runs on the first call, and every call
 * answers what it made. For values that are the same for every app and hold no account's data (a
 * dummy password hash); what an app keeps about its accounts lives in its `AppState`.
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}
