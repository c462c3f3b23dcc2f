import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** RUNNER_TEMP is emptied at the end of each job, so the report never leaks into a later one. */
export async function writeReportFile(json: string): Promise<string> {
  const folder = join(process.env.RUNNER_TEMP || tmpdir(), 'trunk-health-gate');
  await mkdir(folder, { recursive: true });
  const path = join(folder, 'report.json');
  await writeFile(path, json, 'utf8');
  return path;
}
