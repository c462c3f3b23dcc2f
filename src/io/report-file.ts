import { mkdir, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Large enough that writes are few, small enough that no big string is ever built. */
const BATCH_CHARS = 64 * 1024;

/**
 * Writes the report to RUNNER_TEMP, which is emptied at the end of each job, so the report never
 * leaks into a later one. The pieces are written in batches as they come.
 */
export async function writeReportFile(pieces: Iterable<string>): Promise<string> {
  const folder = join(process.env.RUNNER_TEMP || tmpdir(), 'trunk-health-gate');
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'report.json');
  const file = await open(path, 'w');
  try {
    let batch: string[] = [];
    let size = 0;
    for (const piece of pieces) {
      batch.push(piece);
      size += piece.length;
      if (size < BATCH_CHARS) continue;
      await file.write(batch.join(''));
      batch = [];
      size = 0;
    }
    await file.write(batch.join(''));
  } finally {
    await file.close();
  }
  return path;
}
