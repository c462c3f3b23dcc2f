import type * as z from 'zod/mini';
import {
  RequestFailure,
  type Answer,
  type ApiRequest,
  type RetryingClient,
} from '../http/retrying-client.js';
import { requestError, schemaError, type TrunkApiError } from './errors.js';
import { describeIssues } from './schema-issues.js';

/**
 * How every Trunk protocol sends a request and checks what comes back: no answer becomes the
 * failure it means, and a non-2xx answer whatever the protocol reads into it (`failure`).
 */
export async function successfulAnswer(
  http: RetryingClient,
  request: ApiRequest,
  where: string,
  failure: (answer: Answer) => TrunkApiError,
): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await http.request(request);
  } catch (error) {
    if (error instanceof RequestFailure) throw requestError(where, error);
    throw error;
  }
  const { status } = answer.response;
  if (status < 200 || status > 299) throw failure(answer);
  return answer;
}

/** A 2xx body checked against its schema, or a schema break that names the field. */
export function checkBody<S extends z.ZodMiniType>(
  where: string,
  answer: Answer,
  body: unknown,
  schema: S,
): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw schemaError(where, answer, describeIssues(parsed.error));
  return parsed.data;
}
