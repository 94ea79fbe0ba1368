import { createRequire } from 'node:module';

const requireFromHere = createRequire(import.meta.url);

/**
 * A package loaded the first time it is used rather than at start-up. For the heavy libraries only
 * some requests need (PDF, spreadsheets, the AI client, SMTP, the S3 client): an idle server does not hold them
 * (issue 28's memory at rest). `name` must be a CommonJS package; its type comes from `import type`.
 */
export function lazyModule<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    loaded ??= requireFromHere(name) as T;
    return loaded;
  };
}
