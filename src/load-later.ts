import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Loads code that only some runs use (GitHub's client, the test report reader), kept out of
 * dist/index.js as a chunk of its own. Node 24 compiles and runs a chunk inside import(), before
 * the event loop turns again, so requests already started (the Trunk reads start first) would wait
 * for it to connect: one turn of the loop first lets them leave. The wait always ends.
 */
export async function loadLater<T>(load: () => Promise<T>): Promise<T> {
  await nextTurn();
  return load();
}
