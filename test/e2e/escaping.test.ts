import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  failureLines,
  runAgainst,
  startSim,
  testsJson,
  TOKEN,
} from '../support/e2e.js';
import { type ActionRun, HARNESS_JOB_TOKEN, pullRequestEvent } from '../support/run-action.js';
import { makeQueue, makeQueueEntry, makeTest } from '../support/trunk-data.js';

afterEach(closeSimulators);

const HOSTILE_NAME =
  'MARKER <script>alert(1)</script> a | b [x](y) @someone `code` ``` fence\nline two\r\n# heading';
const HOSTILE_TITLE =
  'TITLEMARK <img src=x onerror=alert(1)> | [pwn](https://evil.example) @octocat';

function unescapedPipes(line: string): number {
  return (line.match(/(?<!\\)\|/g) ?? []).length;
}

/** Every table row that mentions `marker` has as many cells as its table's header row. */
function expectIntactTableRows(summary: string, marker: string) {
  const lines = summary.split('\n');
  lines.forEach((line, index) => {
    if (!line.includes(marker) || !line.trimStart().startsWith('|')) return;
    let header = index;
    while (header > 0 && lines[header - 1]?.trimStart().startsWith('|')) header -= 1;
    expect(unescapedPipes(line), `row: ${line}\nheader: ${lines[header]}`).toBe(
      unescapedPipes(lines[header] ?? ''),
    );
  });
}

describe('untrusted text in the job summary', () => {
  it('lands escaped, not raw, and JSON outputs keep it exact', async () => {
    const hostile = makeTest({
      name: HOSTILE_NAME,
      status: { value: 'broken', reason: '<b>bold</b> reason | pipe', timestamp: null },
      file_path: 'src/<evil>|file.test.ts',
      codeowners: ['@acme/team', '<i>owner</i>'],
      parent: '<script>parent</script>',
    });
    const flaky = makeTest({ name: `${HOSTILE_NAME} (flaky)` });
    const queue = makeQueue({
      enqueuedPullRequests: [
        makeQueueEntry({ prNumber: 42, prTitle: HOSTILE_TITLE, prAuthor: '<u>mallory</u>' }),
      ],
    });
    const sim = await startSim({ broken: [hostile], flaky: [flaky], queues: { main: queue } });

    const run = await runAgainst(sim, { event: pullRequestEvent({ number: 42 }) });

    expectPassed(run);
    const { summary } = run;
    expect(summary, describeRun(run)).toContain('MARKER');
    expect(summary).toContain('TITLEMARK');
    for (const raw of [
      '<script>',
      '<img',
      '<b>bold',
      '<i>owner',
      '<u>mallory',
      '[x](y)',
      '[pwn](https://evil.example)',
      'a | b',
      'line two\r\n# heading',
    ]) {
      expect(summary, `raw ${raw} in the summary`).not.toContain(raw);
    }
    // Inside a code span HTML is shown as text, so only the rest of the summary must not hold it.
    expect(summary.replace(/(?<!\\)`[^`\n]*`/g, '')).not.toContain('<evil>');
    // A mention at a word boundary would ping; escaped (e.g. `@&#8203;someone`) it does not.
    expect(summary).not.toMatch(/(^|[\s|>(])@someone\b/m);
    // The name's newline does not end the line it started on.
    expect(summary).not.toMatch(/^line two/m);
    expect(summary).not.toMatch(/^# heading/m);
    expectIntactTableRows(summary, 'MARKER');
    expectIntactTableRows(summary, 'TITLEMARK');

    const records = testsJson(run);
    expect(records.map((r) => r.name)).toEqual([HOSTILE_NAME, `${HOSTILE_NAME} (flaky)`]);
    expect(records[0]?.file).toBe('src/<evil>|file.test.ts');
    expect(run.outputs['queue-json']).toContain(JSON.stringify(HOSTILE_TITLE).slice(1, -1));
  });

  it('a hostile name in an annotation stays one annotation, on one line, with no command in it', async () => {
    const hostile = makeTest({
      name: 'ANNOT ::error::injected\n::warning::also injected %0A',
      status: { value: 'broken' },
      file_path: 'src/a.test.ts',
    });
    const sim = await startSim({ broken: [hostile], queues: {} });

    const run = await runAgainst(sim, {});

    expectPassed(run);
    const annotated = run.annotations.filter((a) => a.properties.file === 'src/a.test.ts');
    expect(annotated, describeRun(run)).toHaveLength(1);
    expect(annotated[0]?.message).toContain('ANNOT');
    expect(annotated[0]?.message).toContain('injected');
    expect(annotated[0]?.message).not.toMatch(/\n|::error::|::warning::/);
    expect(run.errorLines.filter((l) => l.includes('injected') && !l.includes('file='))).toEqual(
      [],
    );
  });
});

/** Workflow commands hidden in Trunk's text (defect 8): each would act if it reached a line start. */
const INJECTION =
  '\n::error::INJECTED-ERROR\r\n::add-mask::INJECTED-MASK\n::stop-commands::INJECTEDTOK\n%0A::warning::INJECTED-WARNING%0A';

/** The commands the action itself writes; anything else on stdout was injected. */
const OWN_COMMANDS = new Set([
  'add-mask',
  'debug',
  'error',
  'warning',
  'notice',
  'group',
  'endgroup',
]);
const MAX_LINE = 4096;

function commandLines(run: ActionRun): string[] {
  return run.stdout.split('\n').filter((line) => line.trimStart().startsWith('::'));
}

/** Every stdout line is the action's own and one bounded line; outside text cannot forge one. */
function expectNoForgedCommands(run: ActionRun): void {
  const account = describeRun(run);
  for (const line of run.stdout.split('\n')) {
    expect(
      line.length,
      `a log line of ${line.length} characters: ${line.slice(0, 200)}`,
    ).toBeLessThanOrEqual(MAX_LINE);
    expect(line, account).not.toMatch(/^\s*::(error|warning|add-mask|stop-commands)::injected/i);
    expect(line, account).not.toMatch(/^\s*%0A/i);
    expect(line, account).not.toContain('##[');
  }
  for (const line of commandLines(run)) {
    const name = /^\s*::([A-Za-z-]+)/.exec(line)?.[1] ?? '';
    expect(OWN_COMMANDS.has(name), `unexpected command ${name}: ${line.slice(0, 200)}`).toBe(true);
  }
  expect(run.masks.sort()).toEqual([HARNESS_JOB_TOKEN, TOKEN].sort());
  for (const annotation of run.annotations) {
    for (const text of [annotation.message, ...Object.values(annotation.properties)]) {
      expect(text, `annotation text on one line\n${account}`).not.toMatch(/[\r\n]/);
    }
  }
}

describe('workflow commands in Trunk text (defect 8)', () => {
  it('test names, file paths, queue state and branch, PR title and author forge no command', async () => {
    const sim = await startSim({
      broken: [
        makeTest({
          name: `broken${INJECTION}`,
          status: { value: 'broken' },
          file_path: `src/b${INJECTION}.ts`,
        }),
      ],
      flaky: [makeTest({ name: `flaky${INJECTION}`, file_path: 'src/f.test.ts' })],
      queues: {
        main: makeQueue({
          state: `paused${INJECTION}`,
          branch: `main${INJECTION}`,
          enqueuedPullRequests: [
            makeQueueEntry({
              prNumber: 42,
              prTitle: `title${INJECTION}`,
              prAuthor: `author${INJECTION}`,
            }),
          ],
        }),
      },
    });

    const run = await runAgainst(sim, {
      event: pullRequestEvent({ number: 42 }),
      inputs: { 'max-broken-tests': 0, 'max-flaky-tests': 0 },
    });

    expect(run.exitCode, describeRun(run)).toBe(1);
    expectNoForgedCommands(run);
    expect(failureLines(run), describeRun(run)).toHaveLength(1);
    const reasons = run.outputs['failure-reasons'] ?? '';
    expect(reasons, describeRun(run)).toMatch(/broken/i);
    for (const line of reasons.split('\n')) {
      expect(line, `failure-reasons line`).not.toMatch(/^\s*(::|%0A)/i);
      expect(line.length).toBeLessThanOrEqual(MAX_LINE);
    }
  });

  it('a 200 kB test name makes no line over 4 kB and keeps the log small', async () => {
    const huge = `HUGE${'x'.repeat(100_000)}${INJECTION}${'y'.repeat(100_000)}`;
    const sim = await startSim({
      broken: [
        makeTest({ name: huge, status: { value: 'broken' }, file_path: 'src/huge.test.ts' }),
      ],
      flaky: [makeTest({ name: huge, file_path: 'src/huge-flaky.test.ts' })],
      queues: {},
    });

    const run = await runAgainst(sim, { inputs: { 'max-broken-tests': 0 } });

    expect(run.exitCode, describeRun(run)).toBe(1);
    expectNoForgedCommands(run);
    expect(run.stdout.length, 'the step log stays small').toBeLessThan(64 * 1024);
    const message = run.annotations.filter((a) => a.level === 'error').at(-1)?.message ?? '';
    expect(message.length).toBeLessThanOrEqual(MAX_LINE);
    for (const line of (run.outputs['failure-reasons'] ?? '').split('\n')) {
      expect(line.length, 'failure-reasons line').toBeLessThanOrEqual(MAX_LINE);
    }
  });
});
