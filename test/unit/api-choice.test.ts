import { describe, expect, it } from 'vitest';
import { chooseApis, type ApiInputs } from '../../src/settings/api-choice.js';

const TOKEN = 'v1-org-token';
const KEY = 'trunk_v2_abc';

function choose(overrides: Partial<ApiInputs>) {
  return chooseApis({
    apiToken: '',
    apiKey: '',
    apiVersion: 'auto',
    testCollectionIds: [],
    checkTests: true,
    checkQueue: true,
    ...overrides,
  });
}

describe('api-version: auto', () => {
  it('reads both through v1 with only a v1 token', () => {
    expect(choose({ apiToken: TOKEN })).toEqual({
      testsApi: 'v1',
      queueApi: 'v1',
      v2Key: '',
      problems: [],
    });
  });

  it('reads the queue through v2 and tests through v1 with both credentials and no collection', () => {
    const choice = choose({ apiToken: TOKEN, apiKey: KEY });
    expect(choice).toMatchObject({ testsApi: 'v1', queueApi: 'v2', v2Key: KEY, problems: [] });
  });

  it('reads tests through v2 when a v2 key and test-collection-id are both set', () => {
    const choice = choose({ apiKey: KEY, testCollectionIds: ['Ab3dE6gH'] });
    expect(choice).toMatchObject({ testsApi: 'v2', queueApi: 'v2', problems: [] });
  });

  it('takes an api-token that starts with trunk_v2_ as the v2 key', () => {
    const choice = choose({ apiToken: KEY, testCollectionIds: ['Ab3dE6gH'] });
    expect(choice).toMatchObject({ testsApi: 'v2', queueApi: 'v2', v2Key: KEY, problems: [] });
  });

  it('says a trunk_v2_ api-token cannot read tests through v1', () => {
    const [problem] = choose({ apiToken: KEY }).problems;
    expect(problem).toContain('Tests are read (api-version: auto)');
    expect(problem).toContain('trunk_v2_ API key, which works only with the v2 API');
  });

  it('says a v2 key alone cannot read tests without test-collection-id', () => {
    const problems = choose({ apiKey: KEY }).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("through Trunk's v1 API, which needs api-token");
    expect(problems[0]).toContain('set test-collection-id to read tests through v2');
  });

  it('names both inputs and the API each serves when both are empty', () => {
    const problems = choose({}).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/api-token.*v1 API.*api-key.*v2 API/);
    expect(problems[0]).toMatch(/fork/);
  });

  it('leaves a read that is off without an API', () => {
    const choice = choose({ apiKey: KEY, checkTests: false });
    expect(choice).toMatchObject({ testsApi: undefined, queueApi: 'v2', problems: [] });
  });
});

describe('api-version: v1 or v2 forces both reads', () => {
  it('v2 without test-collection-id is an input error for the tests', () => {
    const problems = choose({ apiKey: KEY, apiVersion: 'v2' }).problems;
    expect(problems).toEqual([expect.stringContaining('test-collection-id is empty')]);
  });

  it('v2 without a v2 key names api-key and the reads that need it', () => {
    const problems = choose({
      apiToken: TOKEN,
      apiVersion: 'v2',
      testCollectionIds: ['x'],
    }).problems;
    expect(problems).toEqual([
      expect.stringMatching(
        /^Tests are read and the merge queue is read \(api-version: v2\).*api-key is empty/,
      ),
    ]);
  });

  it('v1 with only a v2 key names api-token', () => {
    const choice = choose({ apiKey: KEY, apiVersion: 'v1', testCollectionIds: ['x'] });
    expect(choice.testsApi).toBe('v1');
    expect(choice.queueApi).toBe('v1');
    expect(choice.problems).toEqual([expect.stringContaining('api-token is empty')]);
  });

  it('v1 reads the queue through v1 even with a v2 key at hand', () => {
    const choice = choose({ apiToken: TOKEN, apiKey: KEY, apiVersion: 'v1' });
    expect(choice).toMatchObject({ testsApi: 'v1', queueApi: 'v1', problems: [] });
  });
});
