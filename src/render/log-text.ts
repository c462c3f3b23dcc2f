import { codePoints, truncate } from '../text.js';
/**
 * Outside text (test names, file paths, branch names, queue states, pull request titles and authors,
 * error bodies) made safe to stand inside one line of the step's log: a plain log line, an
 * annotation's title or message, a `failure-reasons` line or the `::error::` message.
 *
 * The runner reads every stdout line that starts with `::` as a workflow command (and looks for the
 * legacy `##[` form anywhere in a line), and `::stop-commands::` turns command processing off. So outside text must not be able
 * to start a line, and must not carry a command even where a later edit could put it at the start.
 *
 * `%` is left alone: @actions/core encodes it (`%25`) in command messages and properties, and a
 * plain log line shows it as it is; encoding it here too would show `%25` to the reader.
 */

/** Between the two characters of a command marker, invisible to a reader, fatal to the parser. */
const ZERO_WIDTH_SPACE = '\u200B';

/** Line breaks and every other control character (C0, DEL, C1), plus Unicode's line/paragraph separators. */
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;

/** Bidirectional controls, which can make a line read differently from what it holds. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** Half of a surrogate pair with no other half: not text, and invalid in UTF-8 output. */
const LONE_SURROGATES = /\p{Cs}/gu;

/**
 * `text` as one safe log line of at most `max` characters (code points): controls become a
 * space, bidi controls go, `::` and `#[` are split by a zero-width space, and a longer text is
 * cut with `…`.
 */
export function oneLogLine(text: string, max = 1000): string {
  const safe = String(text)
    .replace(LONE_SURROGATES, '\uFFFD')
    .replace(BIDI_CONTROLS, '')
    .replace(CONTROLS, ' ')
    .replace(/:(?=:)/g, `:${ZERO_WIDTH_SPACE}`)
    .replace(/#\[/g, `#${ZERO_WIDTH_SPACE}[`);
  // At most `max` code points, the last one `…` when cut. Cheap exit for the usual short text:
  // UTF-16 length is at least the code point count.
  const limit = Math.max(1, Math.floor(max));
  return safe.length <= limit ? safe : truncate(safe, limit, codePoints);
}
