// What `import * as core from '@actions/core'` costs once bundled (it pulls in @actions/http-client,
// undici, tunnel, @actions/exec and @actions/io through oidc-utils and platform).
import * as core from '@actions/core';

core.getInput('api-token');
