import { InputError } from './input-parsers.js';

// A header value may hold visible ASCII only, for our purposes: a token never has anything else,
// and a zero-width space or a line break pasted along with it survives trim() but not the request.
const HEADER_SAFE = /^[\x21-\x7e]*$/;

function describeCharacter(text: string): string {
  for (const [index, char] of [...text].entries()) {
    if (!HEADER_SAFE.test(char)) {
      const code = char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
      return `U+${code ?? '?'} at character ${index + 1}`;
    }
  }
  return 'an unexpected character';
}

/**
 * A credential sent in a header: trimmed, and refused at input time when it holds a character no
 * header may carry, naming the input and the character's position, never the secret itself.
 */
export function parseSecret(name: string, raw: string): string {
  const token = raw.trim();
  if (HEADER_SAFE.test(token)) return token;
  throw new InputError(
    `${name} contains a character that cannot be sent in an HTTP header (${describeCharacter(token)}): ` +
      'copy the secret again without spaces, line breaks or invisible characters',
  );
}
