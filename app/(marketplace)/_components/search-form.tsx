"use client";
// The marketplace's GET form. A browser puts every named field in the URL, blank or not
// (/?q=echo&category=&skill=&…); this form leaves the blank ones out as its data is built, so the
// URL holds what was chosen and nothing else. Without JavaScript the page redirects to the same URL
// without them (withoutBlankParams).
import { type ComponentProps, useEffect, useRef } from "react";

export function SearchForm(props: ComponentProps<"form">) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const dropBlanks = (event: FormDataEvent) => {
      for (const [name, value] of [...event.formData]) if (typeof value === "string" && value.trim() === "") event.formData.delete(name);
    };
    element.addEventListener("formdata", dropBlanks);
    return () => element.removeEventListener("formdata", dropBlanks);
  }, []);
  return <form ref={form} {...props} />;
}
