/**
 * A day as people read and type it, `28 Sep 2025` (UTC): ISO dates wrap after a hyphen in a
 * browser, and only a non-breaking hyphen would stop that, which copies as a character nobody types.
 */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function dayMonthYear(date: Date): string {
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}
