/**
 * Reads an input as the runner passes it: INPUT_<NAME>, upper case, spaces as underscores, hyphens
 * kept, trimmed. The same lookup as @actions/core's getInput, done here so that the first request
 * to Trunk leaves before @actions/core (about half of the start-up time) has loaded.
 */
export function getRunnerInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}
