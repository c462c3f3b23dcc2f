/**
 * The demo's scenarios and the README's pictures, as the docs name them: every scenario is in
 * CONTRIBUTING's list of demo commands and in the demo's help, every picture the README shows
 * exists, stays under the repository's 300 KB a file and has a caption that names its scenario.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIO_DESCRIPTIONS, SCENARIOS } from '../../scripts/demo-data.js';
import { REPO_ROOT } from '../support/run-action.js';

const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');

describe("the demo's scenarios and the README's pictures", () => {
  it('every scenario has a description, a CONTRIBUTING line and a line in the demo help', () => {
    const contributing = read('CONTRIBUTING.md');
    const demo = read('scripts/demo.ts');
    for (const scenario of SCENARIOS.filter((s) => s !== 'default')) {
      expect(SCENARIO_DESCRIPTIONS[scenario], scenario).not.toBe('');
      expect(contributing, scenario).toContain(`npm run demo -- --scenario ${scenario} `);
      expect(demo, scenario).toContain(`npm run demo -- --scenario ${scenario} `);
    }
  });

  it('every README picture exists, is under 300 KB, and a caption names its scenario', () => {
    const readme = read('README.md');
    const section = readme.slice(
      readme.indexOf('## What a run shows'),
      readme.indexOf('\n## ', readme.indexOf('## What a run shows') + 3),
    );
    const pictures = [...section.matchAll(/!\[[^\]]*\]\((docs\/[^)]+\.png)\)/g)].map((m) => m[1]);
    expect(pictures.length).toBeGreaterThanOrEqual(5);
    for (const picture of pictures) {
      expect(statSync(join(REPO_ROOT, picture ?? '')).size, picture).toBeLessThan(300 * 1024);
    }
    const captions = [...section.matchAll(/^_Scenario `([a-z-]+)`/gm)].map((m) => m[1]);
    for (const scenario of ['broken', 'failed-run', 'job-analysis', 'queue-story']) {
      expect(captions, scenario).toContain(scenario);
      expect(SCENARIOS as readonly string[]).toContain(scenario);
    }
    // The demo's thresholds are named, and where a picture is cut.
    expect(section).toContain('`max-broken-tests: 5`');
    expect(section).toContain('`max-new-failures: 0`');
    expect(section).toMatch(/cut before the sections named at its foot/);
  });
});
