/**
 * Waits before a retry, unless the run is cancelled first: then it rejects at once with the
 * caller's own error, so no retry fires after the verdict. Shared by Trunk's and GitHub's calls.
 */
export function pause(
  ms: number,
  signal: AbortSignal | undefined,
  cancelled: () => Error,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
