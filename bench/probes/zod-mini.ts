// The action's own response schemas, built with zod/mini (src/trunk/schemas.ts).
import { queueSchema, unhealthyTestsPageSchema } from '../../src/trunk/schemas.js';

void queueSchema;
void unhealthyTestsPageSchema;
