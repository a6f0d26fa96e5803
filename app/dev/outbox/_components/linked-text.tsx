import { Fragment } from "react";

// Plain text with each http(s) address made a link, so a sign-in link in the outbox opens with a
// click. Only http and https become links; everything else stays text (React escapes it).
const URL_PATTERN = /(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)'])/;

export function LinkedText({ text }: { text: string }) {
  return text.split(URL_PATTERN).map((part, i) =>
    // split() with one capture group puts the matches at the odd indexes.
    i % 2 === 1 ? (
      <a key={i} href={part}>
        {part}
      </a>
    ) : (
      <Fragment key={i}>{part}</Fragment>
    ),
  );
}
