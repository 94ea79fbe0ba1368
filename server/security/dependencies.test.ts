import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Dependencies are what the lock file says, and none is at a version with a published advisory we
 * know of (the registry's audit endpoint is not always reachable, so the advisories we looked up
 * are listed in docs/security/advisories.json).
 */
const root = join(import.meta.dirname, '..', '..');
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const pkg = read('package.json') as Record<string, Record<string, string>>;
const lock = read('package-lock.json') as {
  lockfileVersion: number;
  packages: Record<
    string,
    { version?: string; resolved?: string; integrity?: string; link?: boolean; inBundle?: boolean }
  >;
};
const { advisories } = read('docs/security/advisories.json') as {
  advisories: Array<{ package: string; fixed: string; id: string }>;
};

/** Plain x.y.z comparison (pre-release tags compare below their release). */
function below(version: string, fixed: string): boolean {
  const [v, vPre] = version.split('-', 2);
  const a = v.split('.').map(Number);
  const b = fixed.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return vPre !== undefined;
}

const installed = Object.entries(lock.packages)
  // Bundled packages come inside their parent's tarball, covered by its hash.
  .filter(([path, entry]) => path.includes('node_modules/') && !entry.link && !entry.inBundle)
  .map(([path, entry]) => ({
    name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
    path,
    ...entry,
  }));

describe('dependencies', () => {
  it('are all pinned by the lock file, with an integrity hash', () => {
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(3);
    const direct = { ...pkg.dependencies, ...pkg.devDependencies };
    for (const name of Object.keys(direct)) {
      expect(lock.packages[`node_modules/${name}`]?.version, name).toMatch(/^\d+\.\d+\.\d+/);
    }
    expect(installed.length).toBeGreaterThan(100);
    for (const entry of installed) {
      expect(entry.version, entry.path).toBeDefined();
      expect(entry.integrity, entry.path).toMatch(/^sha(256|384|512)-/);
      // A package from a git URL or a local path would carry its source instead of a registry hash.
      if (entry.resolved !== undefined) expect(entry.resolved, entry.path).toMatch(/^https:\/\/registry\.npmjs\.org\//);
    }
  });

  it('include no version with a known published advisory', () => {
    const vulnerable = advisories.flatMap((a) =>
      installed
        .filter((p) => p.name === a.package && below(p.version as string, a.fixed))
        .map((p) => `${p.path}@${p.version} (${a.id}; fixed in ${a.fixed})`),
    );
    expect(vulnerable).toEqual([]);
  });

  it('compares versions the way the advisories mean', () => {
    expect(below('0.18.20', '0.25.0')).toBe(true);
    expect(below('0.25.0', '0.25.0')).toBe(false);
    expect(below('5.12.8', '5.8.3')).toBe(false);
    expect(below('7.0.0-rc14', '7.0.0')).toBe(true);
    expect(below('10.0.0', '9.9.9')).toBe(false);
  });
});
