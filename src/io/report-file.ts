import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams the report to RUNNER_TEMP, which is emptied at the end of each job, so the report never
 * leaks into a later one.
 */
export async function writeReportFile(pieces: Iterable<string>): Promise<string> {
  const folder = join(process.env.RUNNER_TEMP || tmpdir(), 'trunk-health-gate');
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'report.json');
  await pipeline(Readable.from(pieces), createWriteStream(path, 'utf8'));
  return path;
}
