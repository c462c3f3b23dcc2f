import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import type { TestStatus, UnhealthyTest } from '../../src/trunk/unhealthy-test.js';
import {
  buildAnnotations,
  MAX_ANNOTATIONS_PER_LEVEL,
  testsToAnnotate,
} from '../../src/render/annotations.js';
import { emptyReport, runContext, unhealthyTest } from '../support/model-builders.js';

let serial = 0;

function unhealthy(status: TestStatus, over: Partial<UnhealthyTest> = {}): UnhealthyTest {
  serial += 1;
  return unhealthyTest(status, {
    file: `src/t${serial}.test.ts`,
    ...over,
  });
}

function many(count: number, status: TestStatus, over: Partial<UnhealthyTest> = {}) {
  return Array.from({ length: count }, () => unhealthy(status, over));
}

describe('buildAnnotations', () => {
  it('annotates a broken test as a warning at its file, with what Trunk knows', () => {
    const test = unhealthy('broken', {
      name: 'checkout total rounds half up',
      file: 'src/checkout/total.test.ts',
      owners: ['@acme/payments', '@alice'],
      quarantined: true,
      prsImpacted7d: 6,
      since: '2025-09-28T14:03:11.482Z',
      url: 'https://app.trunk.io/acme/flaky-tests/test/abc',
    });
    expect(buildAnnotations([test])).toEqual([
      {
        level: 'warning',
        title: 'Broken test: checkout total rounds half up',
        file: 'src/checkout/total.test.ts',
        message:
          'Trunk marks checkout total rounds half up broken (since 2025-09-28; owners: @acme/payments, @alice; quarantined; 6 pull requests impacted in 7 days; https://app.trunk.io/acme/flaky-tests/test/abc).',
      },
    ]);
  });

  it('annotates a flaky test as a notice', () => {
    const test = unhealthy('flaky', { name: 'search paginates' });
    const [annotation] = buildAnnotations([test]);
    expect(annotation).toEqual({
      level: 'notice',
      title: 'Flaky test: search paginates',
      file: test.file,
      message: 'Trunk marks search paginates flaky.',
    });
  });

  it('puts broken tests before flaky ones', () => {
    const annotations = buildAnnotations([...many(2, 'flaky'), ...many(2, 'broken')]);
    expect(annotations.map((annotation) => annotation.level)).toEqual([
      'warning',
      'warning',
      'notice',
      'notice',
    ]);
  });

  it('skips tests without a file', () => {
    const annotations = buildAnnotations([
      unhealthy('broken', { file: undefined }),
      unhealthy('broken'),
      unhealthy('flaky', { file: undefined }),
    ]);
    expect(annotations).toHaveLength(1);
    expect(annotations[0]?.level).toBe('warning');
  });

  it('makes at most 10 annotations per level', () => {
    expect(MAX_ANNOTATIONS_PER_LEVEL).toBe(10);
    const broken = many(25, 'broken');
    const flaky = many(40, 'flaky');
    const annotations = buildAnnotations([...broken, ...flaky]);
    const warnings = annotations.filter((annotation) => annotation.level === 'warning');
    const notices = annotations.filter((annotation) => annotation.level === 'notice');
    expect(warnings).toHaveLength(10);
    expect(notices).toHaveLength(10);
    // The first ones in the report's order: the most impactful.
    expect(warnings.map((annotation) => annotation.file)).toEqual(
      broken.slice(0, 10).map((test) => test.file),
    );
  });

  it('fills the 10 with tests that have a file when earlier ones have none', () => {
    const broken = [...many(5, 'broken', { file: undefined }), ...many(15, 'broken')];
    const annotations = buildAnnotations(broken);
    expect(annotations).toHaveLength(10);
    expect(annotations.every((annotation) => annotation.file !== undefined)).toBe(true);
  });

  it('gives a fractional count of impacted pull requests as Trunk sent it', () => {
    const test = unhealthy('flaky', { name: 'retries', prsImpacted7d: 3.5 });
    const [annotation] = buildAnnotations([test]);
    expect(annotation?.message).toBe(
      'Trunk marks retries flaky (3.5 pull requests impacted in 7 days).',
    );
  });

  it('gives nothing when nothing is unhealthy', () => {
    expect(buildAnnotations([])).toEqual([]);
  });
});

describe('testsToAnnotate', () => {
  const inChangedFile = unhealthy('flaky');
  const brokenElsewhere = unhealthy('broken');
  const flakyElsewhere = unhealthy('flaky');
  const tests = {
    broken: [brokenElsewhere],
    flaky: [inChangedFile, flakyElsewhere],
    incomplete: [],
  };
  const onPullRequest = runContext({ eventName: 'pull_request', prNumber: 7 });

  it('on a pull request run, gives only the tests in the files it changes', () => {
    const report = emptyReport({
      context: onPullRequest,
      tests,
      affected: { changedFiles: 3, tests: [inChangedFile] },
    });
    expect(testsToAnnotate(report)).toEqual([inChangedFile]);
  });

  it('on a pull request run whose files could not be listed, gives none', () => {
    expect(testsToAnnotate(emptyReport({ context: onPullRequest, tests }))).toEqual([]);
  });

  it("on a run without a pull request, gives the repository's tests, broken first", () => {
    expect(testsToAnnotate(emptyReport({ tests }))).toEqual([
      brokenElsewhere,
      inChangedFile,
      flakyElsewhere,
    ]);
  });

  it('gives none when the tests were not read', () => {
    expect(testsToAnnotate(emptyReport())).toEqual([]);
  });
});

/**
 * The `annotations` input as action.yml describes it, as the README's Inputs table does, and as
 * docs/how-it-decides.md explains it.
 */
function documentedAnnotations(): string[] {
  const yml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const decides = readFileSync(new URL('../../docs/how-it-decides.md', import.meta.url), 'utf8');
  const input = /^ {2}annotations:\n([\s\S]*?)^ {4}required:/m.exec(yml)?.[1] ?? '';
  const row = /^\| `annotations` .*$/m.exec(readme)?.[0] ?? '';
  const prose = /^When `annotations` is `true`.*$/m.exec(decides)?.[0] ?? '';
  return [input.replace(/\s+/g, ' '), row, prose];
}

describe('the words about annotations', () => {
  it('say what buildAnnotations does: broken as warnings, flaky as notices, 10 of each', () => {
    const levels = new Map(
      buildAnnotations([unhealthy('broken'), unhealthy('flaky')]).map((annotation) => [
        annotation.title.split(' ')[0]?.toLowerCase(),
        annotation.level,
      ]),
    );
    expect(levels).toEqual(
      new Map([
        ['broken', 'warning'],
        ['flaky', 'notice'],
      ]),
    );
    for (const text of documentedAnnotations()) {
      expect(text, 'the description is found').not.toBe('');
      for (const [status, level] of levels) {
        expect(text, `${status} as ${level}s`).toMatch(new RegExp(`${status} \\w+ as ${level}s`));
      }
      expect(text).toContain(`${MAX_ANNOTATIONS_PER_LEVEL} of each`);
      expect(text, 'what a pull request run annotates').toMatch(
        /pull request run.*only the tests in (the )?files (it|the pull request) changes/i,
      );
    }
  });
});
