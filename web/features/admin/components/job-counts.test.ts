import { describe, expect, it } from 'vitest';
import { jobCountRows } from './job-counts';

describe('job counts table', () => {
  it('has one row per name, sorted, with every state and 0 where none', () => {
    expect(
      jobCountRows([
        { name: 'jobs.prune', state: 'done', count: 3 },
        { name: 'connection.lost', state: 'dead', count: 1 },
        { name: 'connection.lost', state: 'queued', count: 2 },
      ]),
    ).toEqual([
      ['connection.lost', { queued: 2, running: 0, done: 0, dead: 1 }],
      ['jobs.prune', { queued: 0, running: 0, done: 3, dead: 0 }],
    ]);
    expect(jobCountRows([])).toEqual([]);
  });
});
