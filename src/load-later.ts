import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Loads code that only some runs use (GitHub's client, the test report reader), a chunk of dist/
 * of its own. Node 24 compiles and runs a chunk inside import(), before the event loop turns
 * again, so the requests already made (the Trunk reads start first) would connect only after it:
 * one turn of the loop first puts them on the wire. (A host name still being looked up is not
 * back by then: the chunk runs during the lookup, as it would have anyway.) The wait always ends.
 */
export async function loadLater<T>(load: () => Promise<T>): Promise<T> {
  await nextTurn();
  return load();
}
