// Preloaded with --import: as the process exits, writes its peak resident set (KiB) and CPU time
// (µs, user and system) to $THG_BENCH_MAXRSS_FILE as JSON. The fallback for peak RSS when GNU time
// is missing, and the source of CPU times, which load elsewhere on the machine disturbs far less
// than wall time. It also notes the CPU time spent when the first request through node:http (the
// action's Trunk reads; GitHub's client uses fetch) was flushed to its socket: the work that
// request waited for. Loads only node:fs and node:diagnostics_channel, which Node has loaded at
// start-up anyway.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const file = process.env.THG_BENCH_MAXRSS_FILE;
if (file) {
  let firstRequestCpu;
  const onStart = ({ request }) => {
    unsubscribe('http.client.request.start', onStart);
    request.once('finish', () => {
      firstRequestCpu = process.cpuUsage();
    });
  };
  subscribe('http.client.request.start', onStart);
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({
        maxRSS: usage.maxRSS,
        userCPUTime: usage.userCPUTime,
        systemCPUTime: usage.systemCPUTime,
        firstRequestCPUTime: firstRequestCpu && firstRequestCpu.user + firstRequestCpu.system,
      }),
    );
  });
}
