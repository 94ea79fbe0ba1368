import { defineConfig } from 'vitest/config';

// API tests run on the embedded database, and once more on PostgreSQL when TEST_DATABASE_URL is set.
const databases = ['pglite', ...(process.env.TEST_DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    projects: databases.map((db) => ({
      test: {
        name: db,
        include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'web/**/*.test.ts'],
        // The cost of a request is measured where the database shares the server's thread.
        // Several processes share work only on PostgreSQL (the embedded database is one process).
        exclude:
          db === 'pglite'
            ? [
                'server/cluster-processes.test.ts',
                'server/cluster-media.test.ts',
                'server/cluster-s3.test.ts',
                'server/cluster-team.test.ts',
                'server/cluster/bus.test.ts',
                'server/jobs/processes.test.ts',
              ]
            : ['server/security/request-cost.test.ts'],
        environment: 'node',
        globalSetup: ['server/testing/global-setup.ts'],
        env: { TEST_DB: db },
        testTimeout: 30_000,
        hookTimeout: 60_000,
      },
    })),
  },
});
