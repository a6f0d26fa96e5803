// Checks for the dashboard pages as the server renders them (imported by *.test.ts only).
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { expect } from "vitest";

export const html = (element: ReactElement) => renderToStaticMarkup(element);

const ENTITIES: Record<string, string> = { "&quot;": '"', "&#x27;": "'", "&apos;": "'", "&lt;": "<", "&gt;": ">", "&amp;": "&" };

/** What a reader sees of the markup: its text, entities decoded and white space collapsed. */
export const textOf = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, "")
    .replace(/&(quot|#x27|apos|lt|gt|amp);/g, (entity) => ENTITIES[entity])
    .replace(/\s+/g, " ");

/** The searchParams of a page visited without a query. */
export const noSearch = Promise.resolve({});

// Every <input>, <select> and <textarea> (but hidden ones) has a label: a <label for> naming
// its id, or a <label> around it.
export function expectLabelled(markup: string) {
  const controls = [...markup.matchAll(/<(input|select|textarea)\b([^>]*)>/g)].filter(([, , attrs]) => !/type="hidden"/.test(attrs));
  expect(controls.length).toBeGreaterThan(0);
  for (const match of controls) {
    const [control, , attrs] = match;
    const id = /\bid="([^"]+)"/.exec(attrs)?.[1];
    const before = markup.slice(0, match.index);
    const wrapped = before.lastIndexOf("<label") > before.lastIndexOf("</label>");
    expect((id !== undefined && markup.includes(`for="${id}"`)) || wrapped, control).toBe(true);
  }
}
