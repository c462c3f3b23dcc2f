import { GithubError, shortMessage } from './errors.js';
import type { Octokit } from './octokit.js';
import { graphqlErrors, graphqlMessage } from './response-policy.js';
import { messageOf } from '../text.js';

/** The account the token writes as: github-actions[bot] for a workflow's GITHUB_TOKEN. */
export interface Identity {
  login: string;
  /** The account's id, the same number REST shows as `user.id`. */
  id?: number;
}

interface ViewerAnswer {
  viewer?: { login?: unknown; databaseId?: unknown };
}

/**
 * Asked through GraphQL's `viewer`, which answers for every kind of token: REST's `GET /user`
 * refuses installation tokens such as GITHUB_TOKEN.
 */
export async function tokenIdentity(octokit: Octokit): Promise<Identity> {
  let answer: ViewerAnswer;
  try {
    answer = await octokit.graphql<ViewerAnswer>('query { viewer { login databaseId } }');
  } catch (error) {
    if (error instanceof GithubError) throw error;
    throw graphqlError(error);
  }
  const login = answer.viewer?.login;
  const id = answer.viewer?.databaseId;
  if (typeof login !== 'string' || login === '') {
    throw new GithubError('rejected', 'GitHub did not say which account the github-token is');
  }
  return { login, id: typeof id === 'number' ? id : undefined };
}

/**
 * Other GraphQL errors come in a 200 answer too (a rate limit among them is retried before this):
 * GitHub's own `errors[].message`, not Octokit's "Request failed due to following response errors:".
 */
function graphqlError(error: unknown): GithubError {
  const words = graphqlMessage(graphqlErrors(error));
  const text = words || messageOf(error);
  return new GithubError(
    'rejected',
    `POST /graphql (viewer) failed: ${shortMessage(text)}`,
    undefined,
    {
      cause: error,
    },
  );
}

/**
 * By id when both sides have one: GraphQL and REST spell a bot's login differently in places
 * (`github-actions` or `github-actions[bot]`), an id is the same everywhere.
 */
export function isAuthor(identity: Identity, user: { login?: string; id?: number } | null) {
  if (!user) return false;
  if (identity.id !== undefined && user.id !== undefined) return user.id === identity.id;
  return user.login === identity.login;
}
