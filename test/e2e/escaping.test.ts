import { afterEach, describe, expect, it } from 'vitest';
import {
  closeSimulators,
  describeRun,
  expectPassed,
  runAgainst,
  startSim,
  testsJson,
} from '../support/e2e.js';
import { pullRequestEvent } from '../support/run-action.js';
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
