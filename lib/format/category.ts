/** A listing's category as a heading word: "coding" → "Coding". */
export function categoryLabel(category: string): string {
  return category.charAt(0).toUpperCase() + category.slice(1);
}
