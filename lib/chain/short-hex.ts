/** An address or hash as people read it in a sentence: 0x1234…abcd (title/full text elsewhere). */
export function shortHex(value: string): string {
  return `${value.slice(0, 6)}…${value.slice(-4)}`;
}
