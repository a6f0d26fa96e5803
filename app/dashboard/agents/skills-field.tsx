"use client";
// The listing form's skills: one text field (works without JavaScript) mirrored by removable chips,
// and the category's usual tags offered as suggestions to add with a click; none is added unasked.
import { useState } from "react";
import { MAX_SKILLS } from "@/lib/agents/categories";
import { FieldError } from "../_components/form-message";
import forms from "../_components/forms.module.css";

export function useSkills(initial: string[]) {
  const [skills, setSkills] = useState<string[]>(initial);
  const [text, setText] = useState(initial.join(", "));
  return {
    skills,
    text,
    replace(next: string[]) {
      setSkills(next);
      setText(next.join(", "));
    },
    type(value: string) {
      setText(value);
      setSkills([
        ...new Set(
          value
            .split(/[\s,]+/)
            .map((s) => s.trim().toLowerCase())
            .filter(Boolean),
        ),
      ]);
    },
  };
}
export type Skills = ReturnType<typeof useSkills>;

type Props = { id: string; error?: string; skills: Skills; suggested: readonly string[] };

export function SkillsField({ id, error, skills, suggested }: Props) {
  const over = skills.skills.length > MAX_SKILLS;
  const offered = suggested.filter((tag) => !skills.skills.includes(tag));
  return (
    <div className="field">
      <label htmlFor={`${id}-skills`}>Skills</label>
      <ul className={forms.chips} aria-label="Skills on this listing">
        {skills.skills.map((skill) => (
          <li key={skill} className={forms.chip}>
            {skill}
            <button
              type="button"
              aria-label={`Remove skill ${skill}`}
              onClick={() => skills.replace(skills.skills.filter((s) => s !== skill))}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      <input
        id={`${id}-skills`}
        name="skills"
        type="text"
        autoComplete="off"
        value={skills.text}
        onChange={(event) => skills.type(event.currentTarget.value)}
        aria-invalid={error || over ? true : undefined}
        aria-describedby={`${id}-skills-hint${error || over ? ` ${id}-skills-error` : ""}`}
      />
      <p id={`${id}-skills-hint`} className="hint">
        Lower-case tags separated by commas, such as code-review: at most {MAX_SKILLS} ({skills.skills.length} of {MAX_SKILLS} used).
        Renters filter the marketplace by them.
      </p>
      {offered.length > 0 && (
        <div className={forms.suggestions}>
          <span className="hint">Suggested for this category:</span>
          {offered.map((tag) => (
            <button
              key={tag}
              type="button"
              className={forms.suggestion}
              disabled={skills.skills.length >= MAX_SKILLS}
              onClick={() => skills.replace([...skills.skills, tag])}
            >
              <span aria-hidden="true">+ </span>
              {tag}
              <span className="visually-hidden"> (add this skill)</span>
            </button>
          ))}
        </div>
      )}
      <FieldError
        id={`${id}-skills-error`}
        message={error ?? (over ? `At most ${MAX_SKILLS} skills: remove ${skills.skills.length - MAX_SKILLS}.` : undefined)}
      />
    </div>
  );
}
