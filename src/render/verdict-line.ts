import type { GateInput, Verdict } from '../verdict/model.js';
import { plural } from './format.js';

/**
 * The verdict in words, with a mark people know: the heading that opens both the job summary and
 * the pull request comment. `tolerated`: Trunk could not be read and the step passes all the same
 * because on-api-error is warn.
 */
export function verdictHeadline(verdict: Verdict, tolerated: boolean): string {
  // A gate that does not apply to this run neither held nor tripped: it is not counted.
  const configured = verdict.gates.filter((gate) => gate.notApplicable === undefined).length;
  switch (verdict.result) {
    case 'passed':
      if (configured === 0 && verdict.gates.length > 0)
        return '✅ Trunk Health Gate passed: no gate applies to this run';
      return configured > 0
        ? `✅ Trunk Health Gate passed: ${configured === 1 ? 'the gate' : `all ${configured} gates`} held`
        : '✅ Trunk Health Gate passed: no gate is configured';
    case 'failed': {
      const tripped = verdict.gates.filter((gate) => gate.tripped).length || verdict.reasons.length;
      return `❌ Trunk Health Gate failed: ${tripped} of ${plural(Math.max(configured, tripped), 'gate')} tripped`;
    }
    case 'error':
      return tolerated
        ? '⚠️ Trunk unavailable: step kept green by `on-api-error: warn`'
        : '❌ Trunk Health Gate failed: Trunk could not be read';
  }
}

/** Why each gate that does not apply to this run is left out, one line each. */
export function notApplicableLines(verdict: Verdict): string[] {
  return verdict.gates.flatMap((gate) =>
    gate.notApplicable === undefined ? [] : [gate.notApplicable],
  );
}

/** Whether this gate failed the run: the section that explains it opens. */
export function gateTripped(verdict: Verdict, input: GateInput): boolean {
  return verdict.gates.some((gate) => gate.input === input && gate.tripped);
}
