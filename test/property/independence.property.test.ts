/**
 * Independence, as a property (issue 29 §4): evidence from this change's own runs, legs, stacked
 * pull requests or queue runs never explains a failure. Each case generates a change (its commit,
 * pull request and draft, head branch, run and attempt, job) and a Trunk that answers both
 * questions with runs that carry it in some way (its commit in any case and length, its numbers,
 * its branch, a stacked pull request or its branch, any queue branch, a field Trunk did not send,
 * another leg's or this attempt's pass), and checks, through the lookups and their application,
 * that the failure stays new. A control checks that one independent run does explain it, so the
 * property is not vacuous. Seeded and bounded: it runs in well under a second.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evidenceOf, independent, type ChangeIdentity } from '../../src/explain/evidence.js';
import { NEW_REASON } from '../../src/explain/classify.js';
import { applyLookups } from '../../src/explain/lookups.js';
import type { ExplainedFailure } from '../../src/explain/model.js';
import type { LookupIndependence, TrunkLookupApi } from '../../src/explain/trunk-lookup-api.js';
import { lookUpInTrunk } from '../../src/explain/trunk-lookups.js';
import type { ThisChange } from '../../src/settings/this-change.js';
import type { ReportedTest } from '../../src/test-results/model.js';
import type { TestRunRow } from '../../src/trunk/v2/client.js';

const SEED = 29_04;
const RUNS = 300;
const NOW = Date.parse('2026-11-26T08:00:00Z');
const DEFAULT_BRANCH = 'main';
const REPOSITORY = 'AAAAAAAA-0000-4000-a000-000000000001';

const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
const branchName = word.map((w) => `feature/${w}`);
const prNumber = fc.integer({ min: 1, max: 99_999 });

interface World {
  sha: string;
  pr: number;
  draft?: number;
  head: string;
  runId: string;
  attempt: number;
  workflow: string;
  job: string;
  stacked: { numbers: number[]; branches: string[] };
  /** GitHub could not list the stacked pull requests. */
  stackedUnknown: boolean;
}

const world: fc.Arbitrary<World> = fc.record({
  sha: hex(40),
  pr: prNumber,
  draft: fc.option(prNumber, { nil: undefined }),
  head: branchName,
  runId: fc.integer({ min: 1, max: 2 ** 40 }).map(String),
  attempt: fc.integer({ min: 1, max: 5 }),
  workflow: fc.constantFrom('CI', 'Tests', '.github/workflows/ci.yml'),
  job: fc.constantFrom('test', 'unit', 'e2e'),
  stacked: fc.record({
    numbers: fc.uniqueArray(prNumber, { minLength: 1, maxLength: 4 }),
    branches: fc.uniqueArray(branchName, { minLength: 1, maxLength: 4 }),
  }),
  stackedUnknown: fc.boolean(),
});

/** This commit as Trunk may write it: 7 to 40 characters of it, any letter case. */
function thisCommit(w: World): fc.Arbitrary<string> {
  return fc
    .tuple(fc.integer({ min: 7, max: 40 }), fc.boolean(), fc.boolean())
    .map(([length, upper, padded]) => {
      const short = w.sha.slice(0, length);
      return `${padded ? ' ' : ''}${upper ? short.toUpperCase() : short}`;
    });
}

const otherSha = hex(40);
const anyBranch = fc.oneof(branchName, fc.constant(DEFAULT_BRANCH));
const anyNumber = fc.option(prNumber, { nil: undefined });
const buildUrl = (run: string, attempt?: number) =>
  `https://github.com/acme/widgets/actions/runs/${run}${attempt === undefined ? '' : `/attempts/${attempt}`}`;
const otherRun = fc.integer({ min: 1, max: 2 ** 40 }).map((n) => buildUrl(`9${n}`));

/** A failure that carries this change in some way: each arbitrary one way. */
function failureCarrying(w: World): fc.Arbitrary<TestRunRow> {
  const fail = (row: Partial<TestRunRow>): TestRunRow => ({ conclusion: 'failure', ...row });
  const queueBranch = fc
    .tuple(prNumber, hex(8))
    .chain(([n, id]) =>
      fc.constantFrom(
        `trunk-merge/pr-${n}/${id}`,
        `refs/heads/trunk-merge/pr-0${n}/${id}`,
        `trunk-temp/pr-${n}/${id}`,
        `gh-readonly-queue/main/pr-${n}-${id}`,
      ),
    );
  const ownNumbers = [w.pr, ...(w.draft === undefined ? [] : [w.draft])];
  return fc.oneof(
    // This commit, in any form, anywhere.
    fc.record({ sha: thisCommit(w), branch: anyBranch, number: anyNumber }).map((r) => fail(r)),
    // This pull request or its draft, on any branch.
    fc
      .record({ sha: otherSha, branch: anyBranch, number: fc.constantFrom(...ownNumbers) })
      .map((r) => fail(r)),
    // This change's head branch, as Trunk may write it.
    fc
      .record({
        sha: otherSha,
        branch: fc.constantFrom(w.head, `refs/heads/${w.head}`, ` ${w.head} `),
        number: anyNumber,
      })
      .map((r) => fail(r)),
    // A pull request stacked on this one, by its number or its branch.
    fc
      .record({ sha: otherSha, branch: branchName, number: fc.constantFrom(...w.stacked.numbers) })
      .map((r) => fail(r)),
    fc
      .record({ sha: otherSha, branch: fc.constantFrom(...w.stacked.branches), number: prNumber })
      .map((r) => fail(r)),
    // Any merge queue's run: it may test this change too.
    fc.record({ sha: otherSha, branch: queueBranch, number: anyNumber }).map((r) => fail(r)),
    // A run Trunk says too little about to prove anything: no commit, or no branch.
    fc
      .record({
        sha: fc.constantFrom(undefined, '', 'not-a-sha'),
        branch: anyBranch,
        number: anyNumber,
      })
      .map((r) => fail(r)),
    fc
      .record({ sha: otherSha, branch: fc.constantFrom(undefined, '', '  '), number: anyNumber })
      .map((r) => fail(r)),
    // This very run's own upload.
    fc
      .record({ sha: otherSha, branch: anyBranch, number: anyNumber })
      .map((r) => fail({ ...r, buildUrl: buildUrl(w.runId, w.attempt) })),
  );
}

/** A pass of this commit that proves nothing: another leg, another workflow, this or a later attempt. */
function passCarrying(w: World): fc.Arbitrary<TestRunRow> {
  const pass = (row: Partial<TestRunRow>): TestRunRow => ({
    conclusion: 'success',
    number: w.pr,
    branch: w.head,
    ...row,
  });
  const leg = fc.constantFrom('ubuntu-latest', 'windows-latest', '22', '2');
  return fc.oneof(
    // Another leg of the failure's job, in an earlier run.
    fc
      .record({ sha: thisCommit(w), leg, url: otherRun })
      .map((r) =>
        pass({ sha: r.sha, jobName: `${w.job} (${r.leg})`, workflow: w.workflow, buildUrl: r.url }),
      ),
    // Another job or workflow, or Trunk does not say which.
    fc
      .record({
        sha: thisCommit(w),
        job: fc.constantFrom('lint', `${w.job}-2`, undefined),
        workflow: fc.constantFrom(w.workflow, 'Nightly', undefined),
        url: otherRun,
      })
      .filter((r) => r.job !== undefined || r.workflow !== undefined)
      .map((r) => pass({ sha: r.sha, jobName: r.job, workflow: r.workflow, buildUrl: r.url })),
    fc
      .record({ sha: thisCommit(w), url: otherRun })
      .map((r) => pass({ sha: r.sha, jobName: w.job, workflow: 'Nightly', buildUrl: r.url })),
    // The failure's own job, but this attempt, a later one, or no link to tell.
    fc
      .record({
        sha: thisCommit(w),
        url: fc.constantFrom(
          buildUrl(w.runId),
          buildUrl(w.runId, w.attempt),
          buildUrl(w.runId, w.attempt + 1),
          undefined,
        ),
      })
      .map((r) => pass({ sha: r.sha, jobName: w.job, workflow: w.workflow, buildUrl: r.url })),
  );
}

function changeOf(w: World): ThisChange {
  return {
    shas: [w.sha],
    eventPullRequest: w.draft,
    headBranch: w.head,
    runId: w.runId,
    runAttempt: w.attempt,
    workflow: w.workflow,
    job: w.job,
  };
}

const TEST: ReportedTest = {
  name: 'adds an item',
  trunkId: 'test-id',
  format: 'junit',
  reportFile: 'reports/junit.xml',
};
const NEW: ExplainedFailure = { test: TEST, class: 'new', match: 'unmatched', reason: NEW_REASON };

/**
 * A Trunk that answers every question with these rows, filtered by conclusion as asked but not by
 * branch or pull request: whatever a row claims to be, the rule must tell.
 */
function trunkAnswering(rows: TestRunRow[]): TrunkLookupApi {
  const failures = rows.filter((row) => row.conclusion === 'failure');
  return {
    repository: () => Promise.resolve({ id: REPOSITORY, defaultBranch: DEFAULT_BRANCH }),
    searchTests: () => Promise.resolve({ pages: 1 }),
    failedBranchRuns: () =>
      Promise.resolve({ runs: failures, more: false, total: failures.length }),
    pullRequestRuns: (_id, _since, failuresOnly) =>
      Promise.resolve({ runs: failuresOnly ? failures : rows, more: false }),
    stop: () => undefined,
  };
}

function independenceOf(w: World): LookupIndependence {
  return {
    jobOf: () => ({ workflow: w.workflow, job: w.job }),
    stackedOn: () =>
      Promise.resolve(
        w.stackedUnknown
          ? { unknown: 'GitHub refused it' }
          : { pullRequests: w.stacked.numbers, branches: w.stacked.branches },
      ),
  };
}

async function explained(w: World, rows: TestRunRow[]): Promise<ExplainedFailure> {
  const result = await lookUpInTrunk(trunkAnswering(rows), [{ test: TEST, questions: true }], {
    collections: [],
    prNumber: w.pr,
    thisChange: changeOf(w),
    targetBranch: 'release/1.0',
    now: NOW,
    independence: independenceOf(w),
  });
  if (!('answers' in result)) throw new Error('the lookups were skipped');
  return applyLookups([NEW], result.answers)[0] as ExplainedFailure;
}

/** Rows that carry the change, whatever the world: fails and passes mixed. */
const carried = (w: World) =>
  fc.array(fc.oneof(failureCarrying(w), passCarrying(w)), { minLength: 1, maxLength: 8 });

describe('independence: this change’s own evidence never explains its failure', () => {
  it('runs of its commit, numbers, branch, stacked pull requests, queues, legs and attempts leave it new', async () => {
    await fc.assert(
      fc.asyncProperty(
        world.chain((w) => fc.tuple(fc.constant(w), carried(w))),
        async ([w, rows]) => {
          const failure = await explained(w, rows);
          expect(failure.class, JSON.stringify({ w, rows, failure }, null, 1)).toBe('new');
          expect(failure.flakyOnThisCommit).not.toBe(true);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('no such run is independent for any use, by the rule itself', () => {
    fc.assert(
      fc.property(
        world.chain((w) => fc.tuple(fc.constant(w), failureCarrying(w), passCarrying(w))),
        ([w, failed, passed]) => {
          const change: ChangeIdentity = {
            shas: [w.sha],
            pullRequests: new Set([w.pr, ...(w.draft === undefined ? [] : [w.draft])]),
            branches: new Set([w.head]),
            runId: w.runId,
            runAttempt: w.attempt,
            stacked: {
              known: true,
              pullRequests: new Set(w.stacked.numbers),
              branches: new Set(w.stacked.branches),
            },
          };
          const job = { workflow: w.workflow, job: w.job };
          for (const row of [failed, passed]) {
            const e = evidenceOf(row);
            expect(
              independent(e, change, {
                kind: 'failed-on-branch',
                branches: ['main', 'release/1.0'],
              }),
            ).toBe(false);
            expect(independent(e, change, { kind: 'failed-on-pull-request' })).toBe(false);
            expect(independent(e, change, { kind: 'passed-on-this-commit', job })).toBe(false);
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('control: one independent run among them does explain it (the property is not vacuous)', async () => {
    await fc.assert(
      fc.asyncProperty(
        world
          .filter((w) => !w.stackedUnknown)
          .chain((w) =>
            fc.tuple(
              fc.constant(w),
              carried(w),
              fc.oneof(
                otherSha.map((sha): TestRunRow => ({
                  conclusion: 'failure',
                  sha,
                  branch: DEFAULT_BRANCH,
                })),
                fc
                  .tuple(otherSha, prNumber, word)
                  .filter(
                    ([, n, b]) =>
                      n !== w.pr &&
                      n !== w.draft &&
                      !w.stacked.numbers.includes(n) &&
                      `other/${b}` !== w.head,
                  )
                  .map(([sha, number, b]): TestRunRow => ({
                    conclusion: 'failure',
                    sha,
                    number,
                    branch: `other/${b}`,
                  })),
                otherRun.map((url): TestRunRow => ({
                  conclusion: 'success',
                  sha: w.sha,
                  jobName: w.job,
                  workflow: w.workflow,
                  buildUrl: url,
                })),
              ),
            ),
          ),
        async ([w, rows, independentRow]) => {
          const failure = await explained(w, [...rows, independentRow]);
          expect(
            ['preexisting', 'other-prs', 'flaky'],
            JSON.stringify({ w, independentRow, failure }),
          ).toContain(failure.class);
        },
      ),
      { seed: SEED, numRuns: 100 },
    );
  });
});
