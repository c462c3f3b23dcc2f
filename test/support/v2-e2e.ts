/**
 * Shared pieces of the v2 end-to-end tests: an organisation on the v2 simulator (the repository
 * acme/widgets, its test collection, its queue on main) and the inputs that point the action at it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ActionRun, runAction, type RunActionOptions } from './run-action.js';
import {
  makeRepository,
  makeV2Queue,
  makeV2Tests,
  type QueueSpec,
  type V2Test,
} from './trunk-v2-data.js';
import {
  startTrunkV2Simulator,
  type TrunkV2Simulator,
  type V2SimulatorOptions,
} from './trunk-v2-simulator.js';

/** Distinctive, so a leak is found by a plain substring search. */
export const KEY = 'trunk_v2_e2e-5ecret-key-9b3f1a';
export const COLLECTION = 'Coll0001';
export const REPO = makeRepository('https://github.com/acme/widgets');
export const OTHER_REPO = makeRepository('https://github.com/acme/gadgets');

const started: TrunkV2Simulator[] = [];

export interface Organisation {
  flaky?: number;
  broken?: number;
  queue?: Omit<QueueSpec, 'repositoryId'> | null;
  /** Extra rows in the collection, e.g. another repository's tests. */
  extra?: V2Test[];
}

export function organisationData(org: Organisation = {}): V2SimulatorOptions {
  const tests = [
    ...makeV2Tests(org.flaky ?? 5, 'flaky', {
      repositoryId: REPO.id,
      testCollectionId: COLLECTION,
      seed: 41,
    }),
    ...makeV2Tests(org.broken ?? 2, 'broken', {
      repositoryId: REPO.id,
      testCollectionId: COLLECTION,
      seed: 42,
    }),
    ...(org.extra ?? []),
  ];
  const queue =
    org.queue === null
      ? []
      : [makeV2Queue({ repositoryId: REPO.id, ...(org.queue ?? { batches: [[{ number: 7 }]] }) })];
  return {
    key: KEY,
    repositories: [REPO, OTHER_REPO],
    collections: { [COLLECTION]: tests },
    queues: queue,
  };
}

/** A v2 simulator with `org`'s data; options win. closeV2Simulators() stops it. */
export async function startV2Sim(
  org: Organisation = {},
  options: V2SimulatorOptions = {},
): Promise<TrunkV2Simulator> {
  const sim = await startTrunkV2Simulator({ ...organisationData(org), ...options });
  started.push(sim);
  return sim;
}

const temps: string[] = [];

export async function closeV2Simulators(): Promise<void> {
  await Promise.all(started.splice(0).map((sim) => sim.close()));
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** The parts of the report file these tests read. */
export interface ReportFile {
  tests: { otherRepositoryTests?: number; flaky: { name: string }[] } | null;
  queue: { url?: string; depth?: number; entries: { prNumber: number; held?: string }[] } | null;
  notes: string[];
  testsApi: string | null;
  queueApi: string | null;
}

/** A RUNNER_TEMP that outlives the run, so the report file can be read afterwards. */
export function keptRunnerTemp(): { env: { RUNNER_TEMP: string }; report(): ReportFile } {
  const dir = mkdtempSync(join(tmpdir(), 'thg-v2-temp-'));
  temps.push(dir);
  return {
    env: { RUNNER_TEMP: dir },
    report: () =>
      JSON.parse(readFileSync(join(dir, 'trunk-health-gate', 'report.json'), 'utf8')) as ReportFile,
  };
}

/** The v2 key and the collection for `sim`; `options.inputs` add or override. */
export function v2Options(sim: TrunkV2Simulator, options: RunActionOptions = {}): RunActionOptions {
  return {
    ...options,
    inputs: {
      'api-key': KEY,
      'api-url': sim.apiUrl,
      'test-collection-id': COLLECTION,
      ...options.inputs,
    },
  };
}

/** Runs dist/index.js with the v2 key and the collection; `options.inputs` add or override. */
export function runAgainstV2(
  sim: TrunkV2Simulator,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  return runAction(v2Options(sim, options));
}
