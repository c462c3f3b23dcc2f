/**
 * The action's own credentials taken out of what the test reports say, before anything uses it. A
 * test of the very client that sends the token names it, quotes it in a failure, or writes it into a
 * file name; the runner's log masking looks for the raw value only, and would miss it once Markdown
 * (`trk\_live\_…`), HTML, a URL or JSON escapes it in a summary, a comment, an output or a file.
 * So every text is redacted here, once, while it is still raw.
 */
import type { ReportedTest, TestResults, UnreadReport } from './model.js';
import { messageOf } from '../text.js';

export const REDACTED = '***';

/**
 * A prefix this long of a secret, at the end of a text a reader cut short (`…`), is redacted too: a
 * cut must not show most of a token.
 */
const MIN_CUT_PREFIX = 4;

/** The secrets to look for: empty ones left out, longest first, so one inside another goes whole. */
function secretsToFind(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((secret) => secret !== ''))].sort(
    (a, b) => b.length - a.length,
  );
}

function redactCut(text: string, secret: string): string {
  if (!text.endsWith('…')) return text;
  const body = text.slice(0, -1);
  for (let length = Math.min(secret.length - 1, body.length); length >= MIN_CUT_PREFIX; length--) {
    if (body.endsWith(secret.slice(0, length))) {
      return `${body.slice(0, body.length - length)}${REDACTED}…`;
    }
  }
  return text;
}

/**
 * Text shaped like a credential, which another job may have printed into a shared report: GitHub's
 * tokens (`ghp_`, `gho_`, `ghu_`, `ghs_` including the ~520-character installation token, `ghr_`,
 * `github_pat_`) and Trunk's v2 API keys (`trunk_v2_`). Four characters after the prefix are enough:
 * a cut text may hold only the start of one.
 */
const CREDENTIAL_SHAPES = /\b(?:gh[pousr]_|github_pat_|trunk_v2_)[A-Za-z0-9_-]{4,}/g;

/** `text` with every occurrence of each secret, and of text shaped like one, replaced by `***`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secretsToFind(secrets)) {
    redacted = redactCut(redacted.split(secret).join(REDACTED), secret);
  }
  return redacted.replace(CREDENTIAL_SHAPES, REDACTED);
}

/** Every text field of a test record, lists of texts too (CTRF's suite path); numbers and flags are the reader's own. */
function redactCase(test: ReportedTest, secrets: readonly string[]): ReportedTest {
  const copy: Record<string, unknown> = { ...test };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = redactText(value, secrets);
    else if (Array.isArray(value)) {
      copy[key] = value.map((item: unknown) =>
        typeof item === 'string' ? redactText(item, secrets) : item,
      );
    }
  }
  return copy as unknown as ReportedTest;
}

function redactUnread(unread: UnreadReport, secrets: readonly string[]): UnreadReport {
  return {
    ...unread,
    file: redactText(unread.file, secrets),
    why: redactText(unread.why, secrets),
  };
}

/**
 * The reading with every text from the reports redacted: test names, classes, parents, files,
 * messages, report file names, unread reports and warnings. Counts are unchanged.
 */
export function redactTestResults(results: TestResults, secrets: readonly string[]): TestResults {
  const found = secretsToFind(secrets);
  const text = (value: string) => redactText(value, found);
  return {
    ...results,
    files: results.files.map(text),
    failures: results.failures.map((test) => redactCase(test, found)),
    flaked: results.flaked.map((test) => redactCase(test, found)),
    unread: results.unread.map((unread) => redactUnread(unread, found)),
    warnings: results.warnings.map(text),
  };
}

/**
 * The reading stage with its product redacted; a reading that threw is rethrown with its message
 * redacted (it may name a file), for the stage that reports it as unread.
 */
export async function redactedReading(
  reading: Promise<TestResults>,
  secrets: readonly string[],
): Promise<TestResults> {
  try {
    return redactTestResults(await reading, secrets);
  } catch (error) {
    const message = messageOf(error);
    const redacted = redactText(message, secrets);
    if (redacted === message) throw error;
    // eslint-disable-next-line preserve-caught-error -- the cause holds the secret this removes
    throw new Error(redacted);
  }
}
