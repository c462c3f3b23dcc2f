/**
 * The GitHub simulator's answers of a run attempt's jobs, held to GitHub's REST description
 * (github-rest-extract.json, OpenAPI 3.0): every page of the list validates against the 200 schema,
 * every job in every field GitHub's `job` schema requires, so the action's reading of a needed job's
 * failed step is tested against what GitHub sends.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { afterEach, describe, expect, it } from 'vitest';
import { specDirectory } from '../support/openapi-validator.js';
import {
  closeGithubSimulators,
  DEFAULT_GITHUB_TOKEN,
  startGithubSimulator,
} from '../support/github-simulator.js';

afterEach(closeGithubSimulators);

const JOBS = '/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/jobs';

/** OpenAPI 3.0's `nullable: true` is JSON Schema's `null` type (and, with an enum, its null member). */
function nullableToTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableToTypes);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, item]) => [key, nullableToTypes(item)]);
  const schema = Object.fromEntries(entries) as Record<string, unknown>;
  if (schema.nullable !== true) return schema;
  delete schema.nullable;
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
  return schema;
}

function jobsValidator() {
  const file = resolve(specDirectory, 'github-rest-extract.json');
  const doc = nullableToTypes(JSON.parse(readFileSync(file, 'utf8'))) as object;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  ajvFormats.default(ajv);
  ajv.addSchema({ ...doc, $id: 'https://github-rest.test/extract.json' });
  const pointer = [
    'paths',
    JOBS,
    'get',
    'responses',
    '200',
    'content',
    'application/json',
    'schema',
  ]
    .map((segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1'))
    .join('/');
  return ajv.compile({ $ref: `https://github-rest.test/extract.json#/${pointer}` });
}

describe('the GitHub simulator against GitHub’s REST description', () => {
  it('lists a run attempt’s jobs, page by page, as the job schema has them', async () => {
    const gh = await startGithubSimulator();
    gh.setRunJobs(1234567890, 2, [
      { name: 'web-tests' },
      {
        name: 'api-tests (3.12, ubuntu-latest)',
        conclusion: 'failure',
        steps: [
          { name: 'Set up job', conclusion: 'success' },
          { name: 'Install dependencies', conclusion: 'failure' },
          { name: 'Run tests', conclusion: 'skipped' },
        ],
      },
      { name: 'tests-gate', conclusion: null, steps: [{ name: 'Gate', conclusion: null }] },
    ]);
    const validate = jobsValidator();
    const path = '/repos/acme/widgets/actions/runs/1234567890/attempts/2/jobs';
    const pages: unknown[] = [];
    for (const page of [1, 2]) {
      const response = await fetch(`${gh.url}${path}?per_page=2&page=${page}`, {
        headers: { authorization: `token ${DEFAULT_GITHUB_TOKEN}` },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { total_count: number; jobs: unknown[] };
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      expect(body.total_count).toBe(3);
      pages.push(...body.jobs);
      if (page === 1) expect(response.headers.get('link')).toContain('rel="next"');
    }
    expect(pages).toHaveLength(3);
  });

  it('the validator refuses a job GitHub would not send', () => {
    const validate = jobsValidator();
    expect(validate({ total_count: 1, jobs: [{ name: 'web-tests' }] })).toBe(false);
  });
});
