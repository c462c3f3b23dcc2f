// Preloaded with --import: as the process exits, writes its peak resident set (KiB) and CPU time
// (µs, user and system) to $THG_BENCH_MAXRSS_FILE as JSON. The fallback for peak RSS when GNU time
// is missing, and the source of CPU times, which load elsewhere on the machine disturbs far less
// than wall time. Loads only node:fs, which Node has loaded at start-up anyway.
import { writeFileSync } from 'node:fs';

const file = process.env.THG_BENCH_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRSS: usage.maxRSS,
        userCPUTime: usage.userCPUTime,
        systemCPUTime: usage.systemCPUTime,
      }),
    );
  });
}
