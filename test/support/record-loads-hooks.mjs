// The loader hook of record-loads.mjs. It runs in the loader's own thread and appends before the
// module is handed on, so every load is on file before the module runs, whatever the exit.
import { appendFileSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  const file = process.env.THG_RECORD_LOADS;
  if (file && url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
