/** A text Trunk sent, or undefined when it sent none: null, missing and blank all mean "not known". */
export function present(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}
