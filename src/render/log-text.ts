// Placeholder until the neutraliser lands: flattens control characters and caps the length.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

export function oneLogLine(text: string, max = 1000): string {
  const flat = text.replace(CONTROL, ' ').replace(/::/g, ':\u200b:');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
