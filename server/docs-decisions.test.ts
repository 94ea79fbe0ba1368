import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/*
 * docs/decisions/README.md: one record per decision, dated, with a status; a changed decision is a
 * new record that supersedes the old one, and the two name each other.
 */

const folder = new URL('../docs/decisions/', import.meta.url);

type DecisionRecord = { name: string; text: string };

const RECORD_NAME = /^(\d{3})-[a-z0-9-]+\.md$/;
const DATE_LINE = /^Date: (\d{4}-\d{2}-\d{2})$/;
const STATUS_LINE = /^Status: (accepted|superseded by (\d{3}))$/;
const SUPERSEDES = /\bSupersedes (\d{3})\b/g;

const isCalendarDay = (day: string) => new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) === day;

/** What is wrong with a set of records, one sentence a problem (none when they keep the rule). */
function checkDecisionRecords(records: DecisionRecord[]): string[] {
  const problems: string[] = [];
  const parsed = new Map<string, { name: string; date?: string; supersededBy?: string; supersedes: string[] }>();
  for (const { name, text } of records) {
    const number = RECORD_NAME.exec(name)?.[1];
    if (!number) {
      problems.push(`${name}: not named NNN-title.md`);
      continue;
    }
    if (parsed.has(number)) problems.push(`${name}: number ${number} is taken by ${parsed.get(number)?.name}`);
    const [title = '', blank, dateLine = '', statusLine = ''] = text.split('\n');
    if (!title.startsWith(`# ${number} — `)) problems.push(`${name}: the first line is not "# ${number} — title"`);
    if (blank !== '') problems.push(`${name}: no blank line under the title`);
    const date = DATE_LINE.exec(dateLine)?.[1];
    if (!date || !isCalendarDay(date)) problems.push(`${name}: no "Date: YYYY-MM-DD" line under the title`);
    const status = STATUS_LINE.exec(statusLine);
    if (!status) problems.push(`${name}: no "Status: accepted" or "Status: superseded by NNN" under the Date`);
    const supersedes = [...text.matchAll(SUPERSEDES)].map((m) => m[1] as string);
    parsed.set(number, { name, date, supersededBy: status?.[2], supersedes });
  }
  for (const [number, record] of parsed) {
    if (record.supersededBy) {
      const successor = parsed.get(record.supersededBy);
      if (!successor) problems.push(`${record.name}: superseded by ${record.supersededBy}, which does not exist`);
      else if (!successor.supersedes.includes(number))
        problems.push(`${record.name}: ${successor.name} does not say "Supersedes ${number}"`);
      else if (record.date && successor.date && successor.date < record.date)
        problems.push(`${record.name}: ${successor.name} is dated before the record it supersedes`);
    }
    for (const old of record.supersedes) {
      const predecessor = parsed.get(old);
      if (!predecessor) problems.push(`${record.name}: supersedes ${old}, which does not exist`);
      else if (predecessor.supersededBy !== number)
        problems.push(`${record.name}: supersedes ${old}, whose status is not "superseded by ${number}"`);
    }
  }
  return problems;
}

const record = (name: string, date: string, status: string, body = 'Context.') => ({
  name,
  text: `# ${name.slice(0, 3)} — A title\n\nDate: ${date}\nStatus: ${status}\n\n${body}\n`,
});

describe('decision records', () => {
  it('every record in docs/decisions is dated, has a status, and supersedes only what names it back', () => {
    const records = readdirSync(folder)
      .filter((f) => f.endsWith('.md') && f !== 'README.md')
      .map((name) => ({ name, text: readFileSync(new URL(name, folder), 'utf8') }));
    expect(records.length).toBeGreaterThan(20);
    expect(checkDecisionRecords(records)).toEqual([]);
  });

  it('a record and the one that supersedes it, both kept to the rule, pass', () => {
    expect(
      checkDecisionRecords([
        record('001-old.md', '2026-11-22', 'superseded by 002'),
        record('002-new.md', '2026-11-23', 'accepted', 'Supersedes 001: it changed.'),
      ]),
    ).toEqual([]);
  });

  it.each([
    [
      'a Date line without its colon',
      [{ name: '001-a.md', text: '# 001 — A\n\nDate 2026-11-22\nStatus: accepted\n' }],
      'no "Date: YYYY-MM-DD"',
    ],
    ['a date that is no day', [record('001-a.md', '2026-02-30', 'accepted')], 'no "Date: YYYY-MM-DD"'],
    ['no Status line', [{ name: '001-a.md', text: '# 001 — A\n\nDate: 2026-11-22\n\nContext.\n' }], 'no "Status:'],
    ['an unknown status', [record('001-a.md', '2026-11-22', 'proposed')], 'no "Status:'],
    ['a title of another number', [{ ...record('002-a.md', '2026-11-22', 'accepted'), name: '003-a.md' }], '"# 003'],
    ['a name without a number', [record('abc-a.md', '2026-11-22', 'accepted')], 'not named NNN-title.md'],
    [
      'two records with one number',
      [record('001-a.md', '2026-11-22', 'accepted'), record('001-b.md', '2026-11-22', 'accepted')],
      'number 001 is taken',
    ],
    ['a successor that does not exist', [record('001-a.md', '2026-11-22', 'superseded by 002')], 'does not exist'],
    [
      'a successor that does not say so',
      [record('001-a.md', '2026-11-22', 'superseded by 002'), record('002-b.md', '2026-11-23', 'accepted')],
      'does not say "Supersedes 001"',
    ],
    [
      'a successor dated before the old record',
      [
        record('001-a.md', '2026-11-22', 'superseded by 002'),
        record('002-b.md', '2026-11-21', 'accepted', 'Supersedes 001.'),
      ],
      'dated before',
    ],
    [
      'an edit in place: the old record still accepted',
      [record('001-a.md', '2026-11-22', 'accepted'), record('002-b.md', '2026-11-23', 'accepted', 'Supersedes 001.')],
      'whose status is not "superseded by 002"',
    ],
  ])('refuses %s', (_case, records, problem) => {
    const problems = checkDecisionRecords(records);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });
});
