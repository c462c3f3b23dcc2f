import { describe, expect, it } from 'vitest';
import type { MergeQueue, QueueEntry } from '../../src/trunk/queue.js';
import type { Verdict } from '../../src/verdict/model.js';
import { buildOutputs } from '../../src/render/outputs.js';
import { emptyReport, runContext } from '../support/model-builders.js';

const PASSED: Verdict = { result: 'passed', reasons: [], gates: [] };

function entry(position: number, prNumber: number): QueueEntry {
  return { position, prNumber, title: '', author: '', skipTheLine: false, noBatch: false };
}

describe('outputs of a run through v2', () => {
  it('tests-api and queue-api name the API each read went through, empty when not read', () => {
    const both = buildOutputs(emptyReport({ testsApi: 'v1', queueApi: 'v2' }), PASSED, '');
    expect([both['tests-api'], both['queue-api']]).toEqual(['v1', 'v2']);
    const none = buildOutputs(emptyReport(), PASSED, '');
    expect([none['tests-api'], none['queue-api']]).toEqual(['', '']);
  });

  it('queue-depth counts pull requests Trunk counts but does not list; queue-json adds the page', () => {
    const queue: MergeQueue = {
      kind: 'queue',
      branch: 'main',
      state: 'running',
      settings: {},
      entries: [entry(1, 10), entry(2, 11), entry(3, 12)],
      depth: 7,
      url: 'https://app.trunk.io/acme/merge-queue/q1',
    };
    const outputs = buildOutputs(
      emptyReport({ queue, context: runContext({ prNumber: 12 }) }),
      PASSED,
      '',
    );
    expect(outputs['queue-depth']).toBe('7');
    expect(outputs['pr-position']).toBe('3');
    expect(JSON.parse(outputs['queue-json'] ?? '{}')).toMatchObject({
      depth: 7,
      url: 'https://app.trunk.io/acme/merge-queue/q1',
    });
  });
});
