/**
 * The docs' recipes hold when things go wrong. dist/index.js runs as the runner runs it into a
 * real outage (Trunk answers 503 to everything), an input error, and a normal day; then every step
 * that follows the gate in a workflow of the README or docs/ is decided and evaluated as the
 * runner would, with the outputs the action really set: its `if:`, and each `${{ }}` of its
 * `env:` and `with:`. An expression the runner would fail on (`fromJSON('')`) fails the test, and
 * so does a step that would run with an empty file path (`jq … "$REPORT"`, an upload's `path`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docWorkflows } from '../support/doc-workflows.js';
import { EXAMPLE_REPOSITORY, EXAMPLES, exampleEvent, fromFork } from '../support/event-fixtures.js';
import { decideIf, interpolate, type Value } from '../support/github-expressions.js';
import { pushEvent, type ActionRun } from '../support/run-action.js';
import { closeV2Simulators, runAgainstV2, startV2Sim } from '../support/v2-e2e.js';

interface Step {
  text: string;
  fields: Record<string, string>;
  env: Record<string, string>;
  with: Record<string, string>;
}

/** The steps of a workflow: each `- ` item at the shallowest step indent, with its fields. */
function stepsOf(workflow: string): Step[] {
  const lines = workflow.split('\n');
  const stepLines = lines.filter((line) => /^\s*- (uses|name|run|id|if):/.test(line));
  if (stepLines.length === 0) return [];
  const indent = Math.min(...stepLines.map((line) => line.search(/-/)));
  const texts: string[] = [];
  for (const line of lines) {
    const at = line.search(/\S/);
    if (at === indent && line.trimStart().startsWith('- ')) texts.push(line);
    else if (texts.length > 0 && (at > indent || line.trim() === ''))
      texts[texts.length - 1] += `\n${line}`;
    else if (at >= 0 && at <= indent) texts.push(''); // another job or key: a break between steps
  }
  return texts.filter((t) => t !== '').map(parseStep);
}

function parseStep(text: string): Step {
  const step: Step = { text, fields: {}, env: {}, with: {} };
  const lines = text.split('\n');
  const fieldIndent = (lines[0] ?? '').search(/-/) + 2;
  let block: 'env' | 'with' | undefined;
  for (const [i, raw] of lines.entries()) {
    const line = i === 0 ? raw.replace('-', ' ') : raw;
    const at = line.search(/\S/);
    const match = /^\s*([\w-]+):\s*(.*?)\s*(?:#.*)?$/.exec(line);
    if (at === fieldIndent && match) {
      const [, key = '', value = ''] = match;
      block = key === 'env' || key === 'with' ? key : undefined;
      if (!block) step.fields[key] = value;
    } else if (block && at > fieldIndent && match) {
      step[block][match[1] ?? ''] = match[2] ?? '';
    }
  }
  return step;
}

const GATE = /^[\w.-]+\/trunk-health-gate@/;

interface Scenario {
  name: string;
  run: ActionRun;
}

function contextFor(id: string, run: ActionRun): Record<string, Value> {
  return {
    steps: {
      [id]: {
        outputs: run.outputs,
        outcome: run.exitCode === 0 ? 'success' : 'failure',
        conclusion: run.exitCode === 0 ? 'success' : 'failure',
      },
    },
    github: { event_name: 'push', repository: 'acme/widgets', event: {}, token: '***' },
    secrets: { TRUNK_API_KEY: '***', TRUNK_API_TOKEN: '***' },
    env: {},
    vars: {},
  };
}

/** What goes wrong in the steps after each gate, for one scenario: none when all hold. */
function problems(scenario: Scenario): string[] {
  const found: string[] = [];
  for (const workflow of docWorkflows()) {
    const steps = stepsOf(workflow.workflow);
    steps.forEach((gate, g) => {
      const id = gate.fields.id;
      if (!GATE.test(gate.fields.uses ?? '') || id === undefined) return;
      const context = contextFor(id, scenario.run);
      const failed = scenario.run.exitCode !== 0;
      const status = { success: !failed, failure: failed, cancelled: false };
      for (const step of steps.slice(g + 1)) {
        const where = `${workflow.where}, step "${step.fields.name ?? step.fields.uses ?? step.fields.run}"`;
        try {
          if (!decideIf(step.fields.if, context, status)) continue;
          const env = Object.fromEntries(
            Object.entries(step.env).map(([k, v]) => [k, interpolate(v, context, status)]),
          );
          const withs = Object.fromEntries(
            Object.entries(step.with).map(([k, v]) => [k, interpolate(v, context, status)]),
          );
          if (/upload-artifact/.test(step.fields.uses ?? '') && (withs.path ?? '') === '') {
            found.push(`${where}: runs with an empty path`);
          }
          for (const [name, value] of Object.entries(env)) {
            const asFile = new RegExp(`(jq|cat|<)[^\\n]*"\\$${name}"`).test(step.text);
            if (value === '' && asFile)
              found.push(`${where}: runs with ${name} empty, read as a file`);
          }
        } catch (error) {
          found.push(`${where}: ${(error as Error).message}`);
        }
      }
    });
  }
  return found;
}

const scenarios: Scenario[] = [];

beforeAll(async () => {
  const outage = (await startV2Sim()).fault({ status: 503, times: Infinity });
  const normal = await startV2Sim();
  const event = pushEvent({ ref: 'refs/heads/main' });
  scenarios.push(
    { name: 'an outage', run: await runAgainstV2(outage, { event, inputs: { 'max-retries': 0 } }) },
    {
      name: 'an input error',
      run: await runAgainstV2(normal, { event, inputs: { 'max-broken-tests': 'lots' } }),
    },
    { name: 'a normal day', run: await runAgainstV2(normal, { event }) },
    {
      // GitHub gives a fork's pull_request run no secrets: the step is skipped, result skipped.
      name: "a fork's pull request",
      run: await runAgainstV2(normal, {
        event: exampleEvent('pull_request', EXAMPLES.pullRequest, fromFork),
        repository: EXAMPLE_REPOSITORY,
        inputs: { 'api-key': '' },
      }),
    },
  );
}, 60_000);

afterAll(closeV2Simulators);

describe("the docs' recipes, after the gate", () => {
  it('meet what each scenario is: an outage and an input error fail the step with empty outputs', () => {
    const [outage, input, normal] = scenarios.map((s) => s.run);
    expect(outage?.exitCode).toBe(1);
    expect(outage?.outputs['tests-json']).toBe('');
    expect(outage?.outputs.result).toBe('error');
    expect(input?.exitCode).toBe(1);
    expect(input?.outputs['report-path']).toBe('');
    expect(normal?.exitCode).toBe(0);
    expect(normal?.outputs['tests-json']).not.toBe('');
  });

  it('read the gate in later steps somewhere', () => {
    const readers = docWorkflows().filter((w) => /steps\.\w+\.outputs\./.test(w.snippet));
    expect(readers.length).toBeGreaterThanOrEqual(3);
  });

  it("meet a fork's pull request: skipped, the step passing, every output but result empty", () => {
    const fork = scenarios.find((s) => s.name === "a fork's pull request")?.run;
    expect(fork?.exitCode).toBe(0);
    expect(fork?.outputs.result).toBe('skipped');
    expect(fork?.outputs['tests-json']).toBe('');
    expect(fork?.outputs['report-path']).toBe('');
  });

  it.each(['an outage', 'an input error', 'a normal day', "a fork's pull request"])(
    'hold after %s',
    (name) => {
      const scenario = scenarios.find((s) => s.name === name);
      expect(scenario).toBeDefined();
      expect(problems(scenario as Scenario)).toEqual([]);
    },
  );

  it('catch an unguarded fromJSON and a jq step on an empty report-path', () => {
    const outage = scenarios[0] as Scenario;
    const context = contextFor('health', outage.run);
    const status = { success: false, failure: true, cancelled: false };
    expect(() =>
      interpolate(
        "${{ join(fromJSON(steps.health.outputs.tests-json).*.name, ', ') }}",
        context,
        status,
      ),
    ).toThrow(/fromJSON/);
    expect(
      interpolate(
        "${{ join(fromJSON(steps.health.outputs.tests-json || '[]').*.name, ', ') }}",
        context,
        status,
      ),
    ).toBe('');
  });
});
