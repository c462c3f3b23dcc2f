/**
 * Issue 10: the demo's job summary and pull request comment, written by dist/index.js as on a
 * runner, rendered by cmark-gfm (GitHub's parser) and checked for what GitHub would show: every
 * table row whole, at most four columns, and no live reference, mention, emoji, link, image or
 * HTML from what Trunk sent. Hostile names and titles join the demo's data to make sure.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEMO_BRANCH,
  DEMO_GATES,
  DEMO_PR,
  DEMO_REPOSITORY,
  demoData,
  demoPrFiles,
} from '../../scripts/demo-data.js';
import { closeSimulators, describeRun, runAgainst, startSim } from '../support/e2e.js';
import { githubProblems, renderGfm } from '../support/gfm.js';
import { closeGithubSimulators, startGithubSimulator } from '../support/github-simulator.js';
import { pullRequestEvent } from '../support/run-action.js';
import { makeQueueEntry, makeTest } from '../support/trunk-data.js';

afterEach(closeSimulators);
afterEach(closeGithubSimulators);

const GH_TOKEN = 'ghs_e2eGithubT0kenRendering';
const NOW = Date.parse('2025-10-01T12:00:00Z');
const HOSTILE_NAME =
  'fixes #123, GH-45 and acme/other#7 at 0123456789abcdef0123456789abcdef01234567 :tada: @octocat \u202egnp.exe';
const HOSTILE_TITLE = 'Closes #99 :shipit: see https://evil.example and www.evil.example @here';

async function runDemo() {
  const data = demoData('paused', NOW);
  const changedFile = demoPrFiles()[1]?.filename ?? '';
  data.flaky.push(
    makeTest({
      name: HOSTILE_NAME,
      file_path: changedFile,
      codeowners: ['@acme/checkout', '\u202e@evil'],
      ticket: { html_url: 'https://acme.atlassian.net/browse/GH-45' },
    }),
  );
  data.queue.enqueuedPullRequests.push(
    makeQueueEntry({ prNumber: 4830, prTitle: HOSTILE_TITLE, prAuthor: 'mallory' }),
  );
  const sim = await startSim({
    flaky: data.flaky,
    broken: data.broken,
    queues: { main: data.queue },
  });
  const gh = await startGithubSimulator({
    token: GH_TOKEN,
    repository: DEMO_REPOSITORY,
    files: { [DEMO_PR.number]: demoPrFiles() },
  });
  const run = await runAgainst(sim, {
    repository: DEMO_REPOSITORY,
    event: pullRequestEvent({
      number: DEMO_PR.number,
      title: DEMO_PR.title,
      head: DEMO_PR.head,
      base: DEMO_BRANCH,
      repository: DEMO_REPOSITORY,
    }),
    inputs: { ...DEMO_GATES, 'github-token': GH_TOKEN, 'comment-on-pr': 'always' },
    env: { GITHUB_API_URL: gh.url },
  });
  const comment = gh.comments(DEMO_PR.number).at(-1)?.body ?? '';
  return { run, comment };
}

describe("the demo's summary and comment on GitHub", () => {
  it('render intact and inert, with the hostile text shown defused', async () => {
    const { run, comment } = await runDemo();
    expect(run.summary, describeRun(run)).toContain('Trunk Health Gate failed');
    expect(comment, describeRun(run)).toContain('Trunk Health Gate failed');

    expect(githubProblems(run.summary)).toEqual([]);
    expect(githubProblems(comment)).toEqual([]);

    for (const markdown of [run.summary, comment]) {
      const html = renderGfm(markdown);
      expect(html).toContain('fixes #\u200d123, GH-\u200d45 and acme/other#\u200d7');
      expect(html).toContain('[U+202E]gnp.exe');
      for (const [, header] of html.matchAll(/<thead>([\s\S]*?)<\/thead>/g)) {
        expect((header?.match(/<th\b/g) ?? []).length).toBeLessThanOrEqual(4);
      }
    }
    expect(renderGfm(run.summary)).toContain('Closes #\u200d99 :\u200dshipit:');
  });
});
