/**
 * The listing form's fields as the shared listing schema expects them. Skills arrive as one text
 * field (comma- or space-separated, what the chips component keeps in sync); channels as
 * checkboxes; prices as text, where blank disables the duration (for the price per message: no
 * answers sold one at a time); the uptime guarantee as text, where blank is left out (99 % for a
 * new listing, unchanged for an edit).
 */
export function listingInputFromForm(form: FormData) {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const guarantee = text("guaranteePercent")?.trim();
  // A form without the field (one rendered before it existed) leaves the price per message as it is.
  const messagePrice = text("pricePerMessage");
  const trial = text("trialMessages");
  return {
    ...(guarantee ? { guaranteePercent: guarantee } : {}),
    ...(messagePrice !== undefined ? { pricePerMessage: messagePrice } : {}),
    ...(trial !== undefined ? { trialMessages: trial } : {}),
    name: text("name") ?? "",
    description: text("description") ?? "",
    category: text("category") ?? "",
    skills: splitSkills(text("skills") ?? ""),
    channels: form.getAll("channels").filter((v): v is string => typeof v === "string"),
    pricePerHour: text("pricePerHour") ?? "",
    pricePerDay: text("pricePerDay") ?? "",
    pricePerMonth: text("pricePerMonth") ?? "",
  };
}

export type ListingFormValues = ReturnType<typeof listingInputFromForm>;

export function splitSkills(value: string): string[] {
  return [
    ...new Set(
      value
        .split(/[\s,]+/)
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}
