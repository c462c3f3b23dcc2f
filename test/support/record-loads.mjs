// Preloaded with --import (NODE_OPTIONS): registers record-loads-hooks.mjs, which appends the URL
// of every file the ES module loader loads (the bundle's entry and each chunk it imports) to
// $THG_RECORD_LOADS. Only the runs that set that variable are recorded.
import { register } from 'node:module';

if (process.env.THG_RECORD_LOADS) register('./record-loads-hooks.mjs', import.meta.url);
