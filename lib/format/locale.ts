// The one locale of every page, e-mail and bot message. British English: day before month
// ("23 Nov 2026", never ambiguous for readers anywhere) and a 24-hour clock; numbers group
// thousands with commas ("1,234.50"), as in en-US.
export const LOCALE = "en-GB";
