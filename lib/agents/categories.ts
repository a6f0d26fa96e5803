// A listing's category selects its default skill tags (used when the owner gives none).
export const CATEGORY_SKILLS = {
  assistant: ["scheduling", "email", "research"],
  coding: ["code-review", "debugging", "refactoring"],
  research: ["web-search", "summarization", "citations"],
  writing: ["copywriting", "editing", "translation"],
  data: ["analysis", "sql", "visualization"],
  marketing: ["seo", "social-media", "ads"],
  support: ["customer-support", "faq", "triage"],
  finance: ["accounting", "trading", "reporting"],
  other: ["general"],
} as const satisfies Record<string, readonly string[]>;

export type Category = keyof typeof CATEGORY_SKILLS;
export const CATEGORIES = Object.keys(CATEGORY_SKILLS) as [Category, ...Category[]];
export const MAX_SKILLS = 8;
