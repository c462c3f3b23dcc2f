import type { Verdict } from '../report/model.js';
import { plural } from './format.js';

/** The one-line verdict that opens both the job summary and the pull request comment. */
export function verdictHeadline(verdict: Verdict): string {
  switch (verdict.result) {
    case 'passed':
      return '✅ **Passed**: no gate tripped.';
    case 'failed':
      return verdict.reasons.length > 0
        ? `❌ **Failed**: ${plural(verdict.reasons.length, 'gate')} tripped.`
        : '❌ **Failed**.';
    case 'error':
      return '⚠️ **Error**: the Trunk API could not be read, so not every gate was checked.';
  }
}
