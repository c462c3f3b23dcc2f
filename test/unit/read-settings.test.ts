import { describe, expect, it } from 'vitest';

import { InputError } from '../../src/settings/input-parsers.js';
import { readSettings, RENAMED_INPUTS, type GetInput } from '../../src/settings/read-settings.js';
import type { RunContext } from '../../src/settings/run-context.js';
import type { Settings } from '../../src/settings/settings.js';
import { readActionSection } from '../support/action-yml.js';

/** Every input's default exactly as action.yml declares it ('' when it declares none). */
const ACTION_INPUTS = readActionSection('inputs');
const DEFAULTS: Record<string, string> = Object.fromEntries(
  ACTION_INPUTS.map((input) => [input.name, input.default ?? '']),
);

const GITHUB_REPOSITORY = 'acme/widgets';
const GITHUB_TOKEN = 'ghs_workflow_token';

/**
 * What @actions/core's getInput returns for a step that sets `given`: the value given, else the
 * default from action.yml as the runner evaluates it. Records every name asked for.
 */
function inputs(given: Record<string, string> = {}): GetInput & { asked: string[] } {
  const asked: string[] = [];
  const getInput = (name: string): string => {
    // An input renamed before 1.0.0 is still passed by GitHub, undeclared: its old name is asked.
    if (RENAMED_INPUTS.some(([old]) => old === name)) return given[name] ?? '';
    asked.push(name);
    if (!(name in DEFAULTS)) throw new Error(`input ${name} is not declared in action.yml`);
    const value = given[name] ?? DEFAULTS[name] ?? '';
    return value
      .replace('${{ github.repository }}', GITHUB_REPOSITORY)
      .replace('${{ github.token }}', GITHUB_TOKEN);
  };
  return Object.assign(getInput, { asked });
}

/** The minimal inputs a user writes: the token and, since check-tests defaults to true, the slug. */
const MINIMAL = { 'api-token': 'tkn_secret_123', 'org-url-slug': 'acme' };

function context(overrides: Partial<RunContext> = {}): RunContext {
  return {
    eventName: 'pull_request',
    serverUrl: 'https://github.com',
    repository: 'acme/widgets',
    branch: 'main',
    prNumber: 12,
    inMergeQueue: false,
    isPullRequestEvent: true,
    isFork: false,
    workflow: 'CI',
    job: 'gate',
    ...overrides,
  };
}

function read(given: Record<string, string>, derived: RunContext = context()): Settings {
  return readSettings(inputs(given), derived);
}

/** The message readSettings fails with; fails the test when the inputs are accepted. */
function failure(given: Record<string, string>, derived: RunContext = context()): string {
  try {
    readSettings(inputs(given), derived);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as Error).message;
  }
  throw new Error('expected readSettings to reject the inputs');
}

describe('the defaults this test uses', () => {
  it('are read from action.yml, where no input is required', () => {
    expect(ACTION_INPUTS.map((input) => input.name)).toContain('api-token');
    expect(ACTION_INPUTS.filter((input) => input.required)).toEqual([]);
    expect(DEFAULTS['api-version']).toBe('auto');
  });
});

describe('readSettings with action.yml defaults', () => {
  it('gives the documented settings', () => {
    expect(read(MINIMAL)).toEqual({
      apiToken: 'tkn_secret_123',
      apiKey: '',
      apiVersion: 'auto',
      testCollectionIds: [],
      testsApi: 'v1',
      queueApi: 'v1',
      orgUrlSlug: 'acme',
      repository: 'acme/widgets',
      owner: 'acme',
      repoName: 'widgets',
      repoHost: 'github.com',
      targetBranch: 'main',
      apiUrl: 'https://api.trunk.io/v1',
      checkTests: true,
      checkQueue: true,
      pageSize: 100,
      maxPages: 200,
      maxBrokenTests: undefined,
      maxFlakyTests: undefined,
      testResults: [],
      maxNewFailures: undefined,
      maxUnlistedFlakes: undefined,
      ignoreQuarantined: true,
      failOnQueueStates: [],
      onApiError: 'fail',
      timeoutMs: 30_000,
      maxRetries: 3,
      jobSummary: 'always',
      annotations: true,
      failOnAffected: 'off',
      recentWithinDays: 7,
      commentOnPr: 'off',
      commentKey: '',
      githubToken: GITHUB_TOKEN,
      retryBaseMs: 1000,
    } satisfies Settings);
  });

  it('fails, naming the new name, on an input set under its name before 1.0.0', () => {
    for (const [old, now] of RENAMED_INPUTS) {
      expect(() => read({ ...MINIMAL, [old]: '1' })).toThrow(`${old} is now called ${now}`);
      expect(Object.keys(DEFAULTS)).toContain(now);
      expect(Object.keys(DEFAULTS)).not.toContain(old);
    }
  });

  it('reads "off" as off in each input that can be off, spelled off, false or none', () => {
    for (const off of ['off', 'false', 'none', ' OFF ']) {
      const settings = read({
        ...MINIMAL,
        'comment-on-pr': off,
        'fail-on-affected': off,
        'job-summary': off,
      });
      expect([settings.commentOnPr, settings.failOnAffected, settings.jobSummary]).toEqual([
        'off',
        'off',
        'off',
      ]);
    }
    expect(DEFAULTS['fail-on-affected']).toBe('off');
    expect(DEFAULTS['comment-on-pr']).toBe('off');
    expect(read({ ...MINIMAL, 'job-summary': 'true' }).jobSummary).toBe('always');
  });

  it('reads every input declared in action.yml, and only those', () => {
    const getInput = inputs(MINIMAL);
    readSettings(getInput, context());
    expect([...new Set(getInput.asked)].sort()).toEqual(Object.keys(DEFAULTS).sort());
  });

  it('reads every value the user sets', () => {
    const settings = read({
      'api-token': ' tkn \n',
      'org-url-slug': ' acme-corp ',
      repository: 'Acme-Corp/widgets.js',
      'repo-host': 'GHE.Example.com',
      'target-branch': 'refs/heads/release/2.x',
      'api-url': 'https://trunk.example.com/api/v1/',
      'page-size': '25',
      'max-pages': '3',
      'max-broken-tests': '0',
      'max-flaky-tests': '10',
      'ignore-quarantined': 'false',
      'fail-on-queue-states': 'paused, draining',
      'on-api-error': 'warn',
      'timeout-seconds': '2.5',
      'max-retries': '0',
      'job-summary': 'false',
      annotations: 'false',
    });
    expect(settings).toMatchObject({
      apiToken: 'tkn',
      orgUrlSlug: 'acme-corp',
      repository: 'Acme-Corp/widgets.js',
      owner: 'Acme-Corp',
      repoName: 'widgets.js',
      repoHost: 'ghe.example.com',
      targetBranch: 'release/2.x',
      apiUrl: 'https://trunk.example.com/api/v1',
      pageSize: 25,
      maxPages: 3,
      maxBrokenTests: 0,
      maxFlakyTests: 10,
      ignoreQuarantined: false,
      failOnQueueStates: ['paused', 'draining'],
      onApiError: 'warn',
      timeoutMs: 2500,
      maxRetries: 0,
      jobSummary: 'off',
      annotations: false,
    });
  });

  it('takes repo-host from GITHUB_SERVER_URL when it is empty (GitHub Enterprise)', () => {
    const settings = read(MINIMAL, context({ serverUrl: 'https://github.acme-corp.com' }));
    expect(settings.repoHost).toBe('github.acme-corp.com');
  });
});

describe('readSettings validation', () => {
  // Each bad value: the input it concerns and what the message must say is allowed.
  const cases: [input: string, value: string, allowed: string][] = [
    ['repository', 'widgets', 'owner/name'],
    ['repository', 'acme/widgets/extra', 'owner/name'],
    ['repository', 'acme widgets/x', 'owner/name'],
    ['repo-host', 'https://github.com', 'host name'],
    ['repo-host', 'git hub.com', 'host name'],
    ['api-url', 'api.trunk.io', 'absolute URL'],
    ['api-url', 'http://api.trunk.io/v1', 'https'],
    ['check-tests', 'yes', 'true or false'],
    ['check-queue', '1', 'true or false'],
    ['page-size', '0', 'from 1 to 100'],
    ['page-size', '101', 'from 1 to 100'],
    ['page-size', 'ten', 'from 1 to 100'],
    ['max-pages', '0', 'from 1 to'],
    ['max-pages', '2.5', 'whole number'],
    ['max-broken-tests', '-1', 'whole number from 0'],
    ['max-flaky-tests', 'many', 'whole number from 0'],
    ['max-new-failures', '1.5', 'whole number from 0'],
    ['max-unlisted-flakes', '-1', 'whole number from 0'],
    ['ignore-quarantined', 'sometimes', 'true or false'],
    ['fail-on-queue-states', 'paused,stopped', 'running, paused, draining, switching_modes'],
    ['on-api-error', 'ignore', 'fail, warn'],
    ['timeout-seconds', '0', 'number from 0.1 to 600'],
    ['timeout-seconds', '601', 'number from 0.1 to 600'],
    ['timeout-seconds', 'soon', 'number from 0.1 to 600'],
    ['max-retries', '-1', 'from 0 to 10'],
    ['max-retries', '11', 'from 0 to 10'],
    ['job-summary', 'sometimes', 'always, on-failure, off'],
    ['annotations', 'none', 'true or false'],
  ];

  it.each(cases)('rejects %s: %j, saying %j is allowed', (input, value, allowed) => {
    const message = failure({ ...MINIMAL, [input]: value });
    expect(message).toContain(input);
    expect(message).toContain(allowed);
  });

  it('collects every problem into one message', () => {
    const message = failure({
      'api-token': '',
      'org-url-slug': 'acme',
      'page-size': '500',
      'on-api-error': 'maybe',
      'api-url': 'http://trunk.example.com',
      'max-retries': 'lots',
    });
    for (const input of ['api-token', 'page-size', 'on-api-error', 'api-url', 'max-retries']) {
      expect(message).toContain(input);
    }
    expect(message.split('; ').length).toBeGreaterThanOrEqual(5);
  });

  it.each(['', '   ', '\n'])('rejects an empty api-token (%j) and explains forks', (token) => {
    const message = failure({ ...MINIMAL, 'api-token': token });
    expect(message).toContain('api-token');
    expect(message).toMatch(/fork/i);
    expect(message).toMatch(/secret/i);
  });

  it('never echoes the token in a message about other inputs', () => {
    const message = failure({ ...MINIMAL, 'page-size': '0', 'api-url': 'ftp://x' });
    expect(message).not.toContain(MINIMAL['api-token']);
  });

  describe('org-url-slug', () => {
    it('is required when check-tests is true', () => {
      const message = failure({ 'api-token': 't' });
      expect(message).toContain('org-url-slug');
      expect(message).toContain('check-tests');
    });

    it('is required when only whitespace is given', () => {
      expect(failure({ 'api-token': 't', 'org-url-slug': '  ' })).toContain('org-url-slug');
    });

    it('is not required when check-tests is false', () => {
      const settings = read({ 'api-token': 't', 'check-tests': 'false' });
      expect(settings.checkTests).toBe(false);
      expect(settings.orgUrlSlug).toBe('');
    });
  });

  describe('api-url', () => {
    it.each([
      'http://127.0.0.1:8080/v1',
      'http://localhost:8080/v1',
      'http://[::1]:8080/v1',
      'https://trunk.internal.example/v1',
    ])('accepts %j', (url) => {
      expect(read({ ...MINIMAL, 'api-url': url }).apiUrl).toBe(url);
    });

    it.each(['http://api.trunk.io/v1', 'http://192.168.1.10:8080/v1'])(
      'rejects plain http to %j, which is not loopback',
      (url) => {
        const message = failure({ ...MINIMAL, 'api-url': url });
        expect(message).toContain('api-url');
        expect(message).toContain('https');
      },
    );
  });

  describe('target-branch', () => {
    it('is derived from the event when empty', () => {
      expect(read(MINIMAL, context({ branch: 'develop' })).targetBranch).toBe('develop');
    });

    it('wins over the derived branch when set', () => {
      const settings = read(
        { ...MINIMAL, 'target-branch': 'release' },
        context({ branch: 'main' }),
      );
      expect(settings.targetBranch).toBe('release');
    });

    it('is required when it cannot be derived and the queue is checked', () => {
      const message = failure(MINIMAL, context({ eventName: 'schedule', branch: undefined }));
      expect(message).toContain('target-branch');
      expect(message).toContain('schedule');
    });

    it('is not required when the queue is not checked', () => {
      const settings = read(
        { ...MINIMAL, 'check-queue': 'false' },
        context({ eventName: 'schedule', branch: undefined }),
      );
      expect(settings.targetBranch).toBe('');
      expect(settings.checkQueue).toBe(false);
    });
  });

  describe('combinations', () => {
    it('rejects turning off both checks', () => {
      const message = failure({ ...MINIMAL, 'check-tests': 'false', 'check-queue': 'false' });
      expect(message).toContain('check-tests');
      expect(message).toContain('check-queue');
    });

    it('rejects fail-on-queue-states without check-queue', () => {
      const message = failure({
        ...MINIMAL,
        'check-queue': 'false',
        'fail-on-queue-states': 'paused',
      });
      expect(message).toContain('fail-on-queue-states');
      expect(message).toContain('check-queue');
    });

    it.each(['max-broken-tests', 'max-flaky-tests'])('rejects %s without check-tests', (input) => {
      const message = failure({ 'api-token': 't', 'check-tests': 'false', [input]: '0' });
      expect(message).toContain(input);
      expect(message).toContain('check-tests');
    });
  });
});

describe('test-results and max-new-failures', () => {
  it('reads one pattern a line, trimmed, blank lines and repeats dropped', () => {
    const settings = read({
      ...MINIMAL,
      'test-results': ' reports/**/*.xml \n\n  trunk-summary.json\nreports/**/*.xml\n',
      'max-new-failures': '0',
      'max-unlisted-flakes': '2',
    });
    expect(settings.testResults).toEqual(['reports/**/*.xml', 'trunk-summary.json']);
    expect(settings.maxNewFailures).toBe(0);
    expect(settings.maxUnlistedFlakes).toBe(2);
  });

  it('refuses max-unlisted-flakes without test-results', () => {
    expect(failure({ ...MINIMAL, 'max-unlisted-flakes': '0' })).toContain(
      'max-unlisted-flakes needs test-results',
    );
  });

  it('refuses max-new-failures without test-results, and test-results without check-tests', () => {
    expect(failure({ ...MINIMAL, 'max-new-failures': '0' })).toContain(
      'max-new-failures needs test-results',
    );
    expect(failure({ ...MINIMAL, 'test-results': 'junit.xml', 'check-tests': 'false' })).toContain(
      'test-results needs check-tests: true',
    );
  });
});

describe('the Trunk API of each read', () => {
  const KEY = 'trunk_v2_key_123';

  it('reads a v2 key from api-key, or from an api-token that starts with trunk_v2_', () => {
    expect(read({ 'api-key': KEY, 'check-tests': 'false' })).toMatchObject({
      apiKey: KEY,
      apiToken: '',
      queueApi: 'v2',
    });
    expect(read({ 'api-token': KEY, 'check-tests': 'false' })).toMatchObject({
      apiKey: KEY,
      queueApi: 'v2',
    });
  });

  it('splits test-collection-id on commas and lines, once each', () => {
    const settings = read({
      'api-key': KEY,
      'test-collection-id': ' Ab3dE6gH, Zz9yX8wV\nAb3dE6gH ',
    });
    expect(settings.testCollectionIds).toEqual(['Ab3dE6gH', 'Zz9yX8wV']);
    expect(settings.testsApi).toBe('v2');
  });

  it('rejects a collection id with other characters, and api-version outside auto, v1, v2', () => {
    expect(failure({ 'api-key': KEY, 'test-collection-id': 'a b' })).toContain(
      'test-collection-id',
    );
    expect(failure({ ...MINIMAL, 'api-version': 'v3' })).toContain(
      'api-version must be one of auto, v1, v2',
    );
  });

  it('registers api-key as a header-safe secret like api-token', () => {
    const message = failure({ 'api-key': 'trunk_v2_\u200bx', 'check-tests': 'false' });
    expect(message).toContain('api-key');
    expect(message).not.toContain('trunk_v2_');
  });

  it('refuses a github-token no header may carry when the run has a pull request to read', () => {
    const message = failure({ ...MINIMAL, 'github-token': 'ghs_abc\ndef' });
    expect(message).toContain('github-token');
    expect(message).not.toContain('ghs_abc');
  });

  it('ignores an unusable github-token when no pull request needs it', () => {
    const settings = read(
      { ...MINIMAL, 'github-token': '${{ secrets.MISSING }} x' },
      context({ eventName: 'push', prNumber: undefined, isPullRequestEvent: false }),
    );
    expect(settings.githubToken).toBe('');
  });
});
