// One example on a docs page: its caption (what it is written in, or what it shows) and the text
// to copy.
export type CodeExample = { label: string; code: string };
