/** What a terminal may act on: C0 controls (newline included), DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * Text that came from outside (a file name, a server's message) as it may be printed: every control
 * character shown as `\xHH`, so that none can move the cursor, retitle the window or forge a line.
 */
export function shown(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${hex(c)}`);
}

/** Our own lines with anything from outside in them: every control character escaped but the newlines. */
export function printable(text: string): string {
  return text.split('\n').map(shown).join('\n');
}

/**
 * A JSON document for stdout: JSON.stringify escapes C0 but leaves DEL and C1 raw, which a terminal
 * showing the document may act on; `\u00HH` is the same string to any JSON reader.
 */
export function jsonText(doc: unknown): string {
  return JSON.stringify(doc, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u00${hex(c)}`);
}
