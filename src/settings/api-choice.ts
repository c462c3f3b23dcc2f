/**
 * Which Trunk API each read goes through, decided from the inputs alone, before any request. The
 * action never switches API after an error: what is decided here is what is sent.
 */

export type TrunkApi = 'v1' | 'v2';
export const API_VERSIONS = ['auto', 'v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Trunk's v2 API keys carry this prefix; v1 organization tokens do not. */
export const V2_KEY_PREFIX = 'trunk_v2_';

export interface ApiInputs {
  apiToken: string;
  apiKey: string;
  apiVersion: ApiVersion;
  testCollectionIds: string[];
  checkTests: boolean;
  checkQueue: boolean;
}

export interface ApiChoice {
  /** Undefined when the read is not asked for. */
  testsApi?: TrunkApi;
  queueApi?: TrunkApi;
  /** The v2 API key: api-key, or an api-token that is one; '' when there is none. */
  v2Key: string;
  /** Input errors: a read whose API lacks an input it needs. */
  problems: string[];
}

/** The v2 key at hand: api-key first, else an api-token that starts like a v2 key. */
export function v2KeyOf(apiToken: string, apiKey: string): string {
  if (apiKey !== '') return apiKey;
  return apiToken.startsWith(V2_KEY_PREFIX) ? apiToken : '';
}

function autoChoice(inputs: ApiInputs, v2Key: string): Pick<ApiChoice, 'testsApi' | 'queueApi'> {
  const testsThroughV2 = v2Key !== '' && inputs.testCollectionIds.length > 0;
  return {
    testsApi: inputs.checkTests ? (testsThroughV2 ? 'v2' : 'v1') : undefined,
    queueApi: inputs.checkQueue ? (v2Key !== '' ? 'v2' : 'v1') : undefined,
  };
}

export const NO_CREDENTIAL =
  'api-token and api-key are both empty: set api-token to your Trunk organization token for the v1 API ' +
  '(api-token: ${{ secrets.TRUNK_API_TOKEN }}) or api-key to a trunk_v2_ API key for the v2 API ' +
  "(api-key: ${{ secrets.TRUNK_API_KEY }}). Check the secret's name; a Dependabot pull request " +
  "reads Dependabot secrets, so store it there too. (A fork's pull request, which GitHub gives no " +
  'secrets, is skipped instead.)';

function v1Problems(inputs: ApiInputs, reads: string, testsOnV1: boolean): string[] {
  if (inputs.apiToken === '') {
    // With a v2 key at hand, tests fall back to v1 only for want of test-collection-id.
    const hint =
      testsOnV1 && inputs.apiKey !== '' && inputs.apiVersion === 'auto'
        ? ': set test-collection-id to read tests through v2 with api-key, or check-tests: false'
        : '';
    return [
      `${reads} through Trunk's v1 API, which needs api-token (the organization token, sent as x-api-token), and api-token is empty${hint}`,
    ];
  }
  if (inputs.apiToken.startsWith(V2_KEY_PREFIX)) {
    return [
      `${reads} through Trunk's v1 API, but api-token holds a trunk_v2_ API key, which works only with the v2 API: ` +
        'set api-token to the v1 organization token, or read through v2 (api-key, and test-collection-id for tests)',
    ];
  }
  return [];
}

function v2Problems(inputs: ApiInputs, v2Key: string, reads: string, testsV2: boolean) {
  const problems: string[] = [];
  if (v2Key === '') {
    problems.push(
      `${reads} through Trunk's v2 API, which needs api-key (a trunk_v2_ API key, sent as Authorization: Bearer), and api-key is empty`,
    );
  }
  if (testsV2 && inputs.testCollectionIds.length === 0) {
    problems.push(
      "Tests are read through Trunk's v2 API, which lists tests per test collection, and test-collection-id is empty: set it to your collection ids (comma-separated)",
    );
  }
  return problems;
}

/** "Tests are read and the merge queue is read (api-version: auto)", for the reads on one API. */
function readsOn(api: TrunkApi, choice: Pick<ApiChoice, 'testsApi' | 'queueApi'>, why: string) {
  const reads = [
    choice.testsApi === api ? 'tests are read' : '',
    choice.queueApi === api ? 'the merge queue is read' : '',
  ].filter(Boolean);
  if (reads.length === 0) return undefined;
  const text = `${reads.join(' and ')} (${why})`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The rules of the api-version input: auto picks per read; v1 and v2 force both reads. */
export function chooseApis(inputs: ApiInputs): ApiChoice {
  const v2Key = v2KeyOf(inputs.apiToken, inputs.apiKey);
  if (inputs.apiToken === '' && inputs.apiKey === '') {
    return { v2Key, problems: [NO_CREDENTIAL] };
  }
  const forced = inputs.apiVersion === 'auto' ? undefined : inputs.apiVersion;
  const choice = forced
    ? {
        testsApi: inputs.checkTests ? forced : undefined,
        queueApi: inputs.checkQueue ? forced : undefined,
      }
    : autoChoice(inputs, v2Key);
  const why = `api-version: ${inputs.apiVersion}`;
  const problems: string[] = [];
  const onV1 = readsOn('v1', choice, why);
  if (onV1) problems.push(...v1Problems(inputs, onV1, choice.testsApi === 'v1'));
  const onV2 = readsOn('v2', choice, why);
  if (onV2) problems.push(...v2Problems(inputs, v2Key, onV2, choice.testsApi === 'v2'));
  return { ...choice, v2Key, problems };
}
