// undici alone, as @actions/http-client imports it. Not a direct dependency: it is resolved from
// the tree @actions/core installs.
import { ProxyAgent } from 'undici';

void ProxyAgent;
