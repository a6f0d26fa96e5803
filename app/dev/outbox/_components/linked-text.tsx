import { Fragment } from "react";

// Plain text with each http(s) address made a link, so a sign-in link in the outbox opens with a
// click. Only http and https become links; everything else stays text (React escapes it).
const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'])/;

export function LinkedText({ text }: { text: string }) {
  // split() with one capture group puts the matches at the odd indexes. The parts of a fixed text
  // never move, so their index is their identity.
  return text.split(URL_PATTERN).map((part, i) =>
    i % 2 === 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed text never reorder
      <a key={i} href={part}>
        {part}
      </a>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a fixed text never reorder
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
